import type { IncomingHttpHeaders } from 'node:http';

// server-behaviour §0.4: the configured client-IP header, else X-Forwarded-For, else X-Real-IP
// (first entry of a list) — honoured only when the direct peer is a trusted proxy.

function normalise(ip: string): string {
  const trimmed = ip.trim();
  return trimmed.startsWith('::ffff:') ? trimmed.slice(7) : trimmed;
}

function firstOf(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  const first = raw?.split(',')[0]?.trim();
  return first ? normalise(first) : undefined;
}

export function clientIp(
  options: { trustedProxies: string[]; clientIpHeader: string | undefined },
  peerAddress: string | undefined,
  headers: IncomingHttpHeaders,
): string {
  const peer = normalise(peerAddress ?? 'unknown');
  if (!options.trustedProxies.map(normalise).includes(peer)) return peer;
  const fromHeader =
    (options.clientIpHeader ? firstOf(headers[options.clientIpHeader]) : undefined) ??
    firstOf(headers['x-forwarded-for']) ??
    firstOf(headers['x-real-ip']);
  return (fromHeader ?? peer).slice(0, 64);
}
