import { isIP } from 'node:net';
import path from 'node:path';

// Issue 33, Keyward DNS: its configuration, read with the rest at start-up (config.ts). A bad
// value stops start-up with a message naming the variable. See docs/dns.md.

export type DnsUpstream =
  | { kind: 'https'; url: string }
  | { kind: 'tls'; host: string; port: number }
  | { kind: 'udp'; host: string; port: number };

export interface DnsConfig {
  /** where allowed names are forwarded, tried in order; empty: nowhere (SERVFAIL) */
  upstreams: DnsUpstream[];
  /** PEM file of a CA to trust for tls:// and https:// upstreams (tests, private resolvers) */
  upstreamCaFile: string | undefined;
  /** the whole time an upstream may take for one query, all upstreams together */
  upstreamTimeoutMs: number;
  /** the longest TTL handed out and cached for a forwarded answer */
  maxTtlSeconds: number;
  /** queries a device may make per minute (in each instance) before it gets REFUSED */
  queriesPerMinute: number;
  /** DoT's TCP port; undefined: DoT off */
  dotPort: number | undefined;
  /** DoH over HTTPS (HTTP/2 and HTTP/1.1) for devices without a TLS proxy; undefined: off */
  dohPort: number | undefined;
  /** the DoT server names are `<device id>.<dotDomain>` */
  dotDomain: string;
  /** PEM files of the certificate (a wildcard for `*.<dotDomain>`) and its key */
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /** outside production, without a certificate: a CA and a certificate generated here */
  generatedTlsDir: string | undefined;
}

/** A documented public default, used in production only: Quad9 (no ECS, DNSSEC validated). */
export const PUBLIC_DNS_UPSTREAM = 'https://dns.quad9.net/dns-query';

type Env = Record<string, string | undefined>;

export class DnsConfigError extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function wholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new DnsConfigError(name, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function hostAndPort(raw: string, defaultPort: number): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:/]+)(?::(\d{1,5}))?$/.exec(raw);
  if (!match) throw new Error('bad host');
  const host = match[1]!.replace(/^\[|\]$/g, '');
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (port < 1 || port > 65535) throw new Error('bad port');
  return { host, port };
}

export function parseDnsUpstreams(raw: string): DnsUpstream[] {
  if (raw.toLowerCase() === 'none') return [];
  return raw
    .split(/[\s,]+/)
    .filter((entry) => entry !== '')
    .map((entry): DnsUpstream => {
      const problem = `must be https://…/dns-query, tls://host[:port] or udp://ip[:port] (or none), got "${entry}"`;
      try {
        if (entry.startsWith('https://')) {
          const url = new URL(entry);
          return { kind: 'https', url: url.toString() };
        }
        if (entry.startsWith('tls://')) {
          return { kind: 'tls', ...hostAndPort(entry.slice(6), 853) };
        }
        if (entry.startsWith('udp://')) {
          const target = hostAndPort(entry.slice(6), 53);
          if (isIP(target.host) === 0) throw new Error('not an IP');
          return { kind: 'udp', ...target };
        }
      } catch {
        throw new DnsConfigError('DNS_UPSTREAM', problem);
      }
      throw new DnsConfigError('DNS_UPSTREAM', problem);
    });
}

export function parseDnsConfig(
  env: Env,
  mode: 'production' | 'staging' | 'development' | 'test',
  dataDir: string,
  baseDir: string,
): DnsConfig {
  const upstreamRaw = optional(env, 'DNS_UPSTREAM');
  // Only production forwards to the public default: a development server or a test never talks
  // to the internet unless told to (allowed names then get SERVFAIL, and the log says why).
  const upstreams =
    upstreamRaw !== undefined
      ? parseDnsUpstreams(upstreamRaw)
      : mode === 'production'
        ? parseDnsUpstreams(PUBLIC_DNS_UPSTREAM)
        : [];
  const caRaw = optional(env, 'DNS_UPSTREAM_CA');
  const certRaw = optional(env, 'DNS_TLS_CERT');
  const keyRaw = optional(env, 'DNS_TLS_KEY');
  if ((certRaw === undefined) !== (keyRaw === undefined)) {
    throw new DnsConfigError(
      certRaw === undefined ? 'DNS_TLS_CERT' : 'DNS_TLS_KEY',
      'must be set together with DNS_TLS_CERT and DNS_TLS_KEY',
    );
  }
  const hasCertificate = certRaw !== undefined;
  const dotDomain = (optional(env, 'DNS_DOT_DOMAIN') ?? 'dns.localhost').toLowerCase();
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(dotDomain)) {
    throw new DnsConfigError('DNS_DOT_DOMAIN', `must be a domain name, got "${dotDomain}"`);
  }
  // DoT: in production only with a certificate; in tests only when a port is given; elsewhere on
  // 853 by default with a generated certificate. DNS_DOT_PORT=off turns it off everywhere.
  const portRaw = optional(env, 'DNS_DOT_PORT');
  let dotPort: number | undefined;
  if (portRaw?.toLowerCase() === 'off') dotPort = undefined;
  else if (portRaw !== undefined) dotPort = wholeNumber(env, 'DNS_DOT_PORT', 853, 0, 65535);
  else if (mode === 'test') dotPort = undefined;
  else if (mode === 'production') dotPort = hasCertificate ? 853 : undefined;
  else dotPort = 853;
  if (dotPort !== undefined && mode === 'production' && !hasCertificate) {
    throw new DnsConfigError('DNS_DOT_PORT', 'needs DNS_TLS_CERT and DNS_TLS_KEY in production');
  }
  const dohRaw = optional(env, 'DNS_DOH_PORT');
  const dohPort =
    dohRaw === undefined || dohRaw.toLowerCase() === 'off'
      ? undefined
      : wholeNumber(env, 'DNS_DOH_PORT', 443, 0, 65535);
  if (dohPort !== undefined && mode === 'production' && !hasCertificate) {
    throw new DnsConfigError('DNS_DOH_PORT', 'needs DNS_TLS_CERT and DNS_TLS_KEY in production');
  }
  return {
    upstreams,
    dohPort,
    upstreamCaFile: caRaw === undefined ? undefined : path.resolve(baseDir, caRaw),
    upstreamTimeoutMs: wholeNumber(env, 'DNS_UPSTREAM_TIMEOUT_MS', 2500, 50, 30_000),
    maxTtlSeconds: wholeNumber(env, 'DNS_MAX_TTL', 60, 0, 86_400),
    queriesPerMinute: wholeNumber(env, 'DNS_QUERIES_PER_MINUTE', 1200, 1, 100_000_000),
    dotPort,
    dotDomain,
    tlsCertFile: certRaw === undefined ? undefined : path.resolve(baseDir, certRaw),
    tlsKeyFile: keyRaw === undefined ? undefined : path.resolve(baseDir, keyRaw),
    generatedTlsDir:
      hasCertificate || mode === 'production' ? undefined : path.join(dataDir, 'dns-tls'),
  };
}
