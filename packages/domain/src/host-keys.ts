import type { SharedKey } from '@keyward/contract/shared';

// Issue 33: what a key means for a host name, in one place for every filter that sees names and
// not whole URLs. Keyward for Chrome's rule compiler (browser-rules.ts) turns these plans into
// declarativeNetRequest rules; Keyward DNS (dns-policy.ts) matches query names with HostMatcher.
// Both are tested side by side against one table (test/host-keys.test.ts), with the Mac's
// semantics: a `domain` key unlocks the domain, `www.` + domain, and a `www.` domain without its
// `www.`; `anySubdomain` that and every subdomain; `domainRegex` searches its pattern (`.` literal,
// `*` any run of characters) anywhere in the host name.

export type HostKeyPlan =
  | { kind: 'exactHosts'; hosts: string[] }
  | { kind: 'subdomains'; domain: string; exactHosts: string[] }
  | { kind: 'domainPattern'; pattern: string }
  /** a key on something else than a host name: a path, an IP address, an app (skeleton) */
  | { kind: 'notAHost' }
  /** a host key whose domain or pattern no filter can apply */
  | { kind: 'invalid' };

/** Keys for every app or for web browsers reach a name filter; keys for one app do not. */
export function appliesToEveryApp(key: SharedKey): boolean {
  if (key.type === 'skeleton') return false;
  return key.scope.type === 'unrestricted' || key.scope.type === 'webBrowsers';
}

export function hostKeyPlan(key: SharedKey): HostKeyPlan {
  switch (key.type) {
    case 'domain': {
      const domain = asciiHost(key.domain);
      return domain ? { kind: 'exactHosts', hosts: domainKeyHosts(domain) } : { kind: 'invalid' };
    }
    case 'anySubdomain': {
      const domain = asciiHost(key.domain);
      if (!domain) return { kind: 'invalid' };
      // the domain and every subdomain of it; a `www.` key also unlocks the bare domain, which is
      // not a subdomain of it
      const exactHosts = domain.startsWith('www.') ? [domain.slice(4)] : [];
      return { kind: 'subdomains', domain, exactHosts };
    }
    case 'domainRegex': {
      const pattern = key.pattern.toLowerCase();
      if (!/^[a-z0-9.*_-]+$/.test(pattern)) return { kind: 'invalid' };
      return { kind: 'domainPattern', pattern: pattern.replace(/\*+/g, '*') };
    }
    case 'ipAddress':
    case 'path':
    case 'skeleton':
      return { kind: 'notAHost' };
  }
}

/** The hosts a `domain` key unlocks: domain, www.domain, and domain without its `www.`. */
export function domainKeyHosts(domain: string): string[] {
  const hosts = [domain, `www.${domain}`];
  if (domain.startsWith('www.') && domain.length > 4) hosts.push(domain.slice(4));
  return hosts;
}

const CANONICAL_HOST = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
const NUMERIC_LABEL = /^(\d+|0x[0-9a-f]*)$/;

/** A host as a canonical URL (and a DNS query) has it: lowercase, punycode; undefined if invalid. */
export function asciiHost(domain: string): string | undefined {
  const lower = domain.trim().toLowerCase();
  // the common case, already canonical: what the URL parser would give back unchanged (it
  // rewrites only non-ASCII names and names whose last label is a number, as IPv4)
  if (CANONICAL_HOST.test(lower) && !NUMERIC_LABEL.test(lower.slice(lower.lastIndexOf('.') + 1))) {
    return lower;
  }
  if (lower === '' || /[/:?#@\s*^|[\]\\]/.test(lower)) return undefined;
  try {
    const host = new URL(`http://${lower}/`).hostname;
    // Chrome refuses a whole rule update over one odd domain: empty labels never reach it.
    const isHostname = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(host);
    return isHostname ? host : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a `domainRegex` pattern (`*` any run, the rest literal) occurs in `host`. */
export function hostHasDomainPattern(pattern: string, host: string): boolean {
  const parts = pattern.split('*');
  // the parts in order, each after the previous: a greedy left-to-right search is exact for `*`
  let from = 0;
  for (const part of parts) {
    if (part === '') continue;
    const at = host.indexOf(part, from);
    if (at === -1) return false;
    from = at + part.length;
  }
  return true;
}

/**
 * Host names unlocked by a set of keys, each with the instant it stops (a key's expiration;
 * Infinity for never). Lookups cost one map read per label of the name plus the patterns.
 */
export class HostMatcher {
  private readonly exact = new Map<string, number>();
  private readonly roots = new Map<string, number>();
  private readonly patterns: { pattern: string; until: number }[] = [];
  size = 0;

  /** Adds a key's plan; false when the plan is not one a name filter can apply. */
  add(plan: HostKeyPlan, until = Number.POSITIVE_INFINITY): boolean {
    switch (plan.kind) {
      case 'exactHosts':
        for (const host of plan.hosts) later(this.exact, host, until);
        break;
      case 'subdomains':
        later(this.roots, plan.domain, until);
        for (const host of plan.exactHosts) later(this.exact, host, until);
        break;
      case 'domainPattern':
        this.patterns.push({ pattern: plan.pattern, until });
        break;
      default:
        return false;
    }
    this.size++;
    return true;
  }

  /** Whether a key unlocks `host` (lowercase, no trailing dot) at `nowMs`. */
  matches(host: string, nowMs: number): boolean {
    const exact = this.exact.get(host);
    if (exact !== undefined && exact > nowMs) return true;
    if (this.roots.size > 0) {
      let suffix = host;
      for (;;) {
        const root = this.roots.get(suffix);
        if (root !== undefined && root > nowMs) return true;
        const dot = suffix.indexOf('.');
        if (dot === -1) break;
        suffix = suffix.slice(dot + 1);
      }
    }
    for (const { pattern, until } of this.patterns) {
      if (until > nowMs && hostHasDomainPattern(pattern, host)) return true;
    }
    return false;
  }
}

function later(map: Map<string, number>, host: string, until: number) {
  const current = map.get(host);
  if (current === undefined || until > current) map.set(host, until);
}
