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
      const pattern = domainPatternOf(key.pattern);
      return pattern === undefined ? { kind: 'invalid' } : { kind: 'domainPattern', pattern };
    }
    case 'ipAddress':
    case 'path':
    case 'skeleton':
      return { kind: 'notAHost' };
  }
}

const DOMAIN_PATTERN = /^[a-z0-9.*_-]+$/;

/** A `domainRegex` pattern as filters apply it (lowercase, runs of `*` as one); undefined if invalid. */
export function domainPatternOf(raw: string): string | undefined {
  const pattern = raw.toLowerCase();
  if (!DOMAIN_PATTERN.test(pattern)) return undefined;
  return pattern.includes('**') ? pattern.replace(/\*+/g, '*') : pattern;
}

/** The hosts a `domain` key unlocks: domain, www.domain, and domain without its `www.`. */
export function domainKeyHosts(domain: string): string[] {
  const hosts = [domain, `www.${domain}`];
  if (domain.startsWith('www.') && domain.length > 4) hosts.push(domain.slice(4));
  return hosts;
}

/** `^[a-z0-9_-]+(\.[a-z0-9_-]+)*$`, by character codes (compiling many keys calls it per key) */
function isCanonicalHost(host: string): boolean {
  let labelLength = 0;
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (c === 46 /* . */) {
      if (labelLength === 0) return false;
      labelLength = 0;
    } else if (
      (c >= 97 && c <= 122) /* a-z */ ||
      (c >= 48 && c <= 57) /* 0-9 */ ||
      c === 95 /* _ */ ||
      c === 45 /* - */
    ) {
      labelLength++;
    } else return false;
  }
  return labelLength > 0;
}
const NUMERIC_LABEL = /^(\d+|0x[0-9a-f]*)$/;

/** A host as a canonical URL (and a DNS query) has it: lowercase, punycode; undefined if invalid. */
export function asciiHost(domain: string): string | undefined {
  const lower = domain.trim().toLowerCase();
  // the common case, already canonical: what the URL parser would give back unchanged (it
  // rewrites only non-ASCII names and names whose last label is a number, as IPv4)
  if (isCanonicalHost(lower) && !NUMERIC_LABEL.test(lower.slice(lower.lastIndexOf('.') + 1))) {
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
  return hostHasPatternParts(pattern.split('*'), host);
}

/** The same with the pattern's parts between its `*`s. */
function hostHasPatternParts(parts: readonly string[], host: string): boolean {
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
 *
 * Built for compiling many devices' keys quickly (issue 33: 1,000 devices × 200 keys ≤ 100 ms):
 * `addKey` reads a key without building its plan, and a `domain` key is one entry that also
 * unlocks its `www.` name at lookup, instead of two entries and a concatenated string.
 */
export class HostMatcher {
  /** exact host names */
  private readonly exact = new Map<string, number>();
  /** names of `domain` keys: each unlocks itself and `www.` + itself */
  private readonly domains = new Map<string, number>();
  /** `anySubdomain` roots: each unlocks itself and every subdomain */
  private readonly roots = new Map<string, number>();
  private readonly patterns: string[] = [];
  private readonly patternsUntil: number[] = [];
  private patternParts: string[][] | undefined;
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
        this.patterns.push(plan.pattern);
        this.patternsUntil.push(until);
        this.patternParts = undefined;
        break;
      default:
        return false;
    }
    this.size++;
    return true;
  }

  /**
   * Adds a key as `add(hostKeyPlan(key), until)` would, without building the plan; false when
   * the key is not a host's (a path, an IP address, an app) or no name filter can apply it.
   */
  addKey(key: SharedKey, until = Number.POSITIVE_INFINITY): boolean {
    switch (key.type) {
      case 'domain': {
        const domain = asciiHost(key.domain);
        if (!domain) return false;
        later(this.domains, domain, until);
        // a `www.` domain also unlocks the name without its `www.` (as domainKeyHosts)
        if (domain.length > 4 && domain.startsWith('www.'))
          later(this.exact, domain.slice(4), until);
        break;
      }
      case 'anySubdomain': {
        const domain = asciiHost(key.domain);
        if (!domain) return false;
        later(this.roots, domain, until);
        if (domain.startsWith('www.')) later(this.exact, domain.slice(4), until);
        break;
      }
      case 'domainRegex': {
        const pattern = domainPatternOf(key.pattern);
        if (pattern === undefined) return false;
        this.patterns.push(pattern);
        this.patternsUntil.push(until);
        this.patternParts = undefined;
        break;
      }
      default:
        return false;
    }
    this.size++;
    return true;
  }

  /** Whether a key unlocks `host` (lowercase, no trailing dot) at `nowMs`. */
  matches(host: string, nowMs: number): boolean {
    if ((this.exact.get(host) ?? 0) > nowMs) return true;
    if (this.domains.size > 0) {
      if ((this.domains.get(host) ?? 0) > nowMs) return true;
      if (host.startsWith('www.') && (this.domains.get(host.slice(4)) ?? 0) > nowMs) return true;
    }
    if (this.roots.size > 0) {
      let suffix = host;
      for (;;) {
        if ((this.roots.get(suffix) ?? 0) > nowMs) return true;
        const dot = suffix.indexOf('.');
        if (dot === -1) break;
        suffix = suffix.slice(dot + 1);
      }
    }
    if (this.patterns.length === 0) return false;
    // each pattern's literal parts, split once on the first lookup rather than on every one (a
    // blocked name tries every pattern) or at compile time (most devices never ask for most keys)
    this.patternParts ??= this.patterns.map((pattern) => pattern.split('*').filter(Boolean));
    const { patternParts, patternsUntil } = this;
    for (let i = 0; i < patternParts.length; i++) {
      if (patternsUntil[i]! > nowMs && hostHasPatternParts(patternParts[i]!, host)) return true;
    }
    return false;
  }
}

function later(map: Map<string, number>, host: string, until: number) {
  // never expiring is the common case: nothing is later than it
  if (until === Number.POSITIVE_INFINITY) {
    map.set(host, until);
    return;
  }
  const current = map.get(host);
  if (current === undefined || until > current) map.set(host, until);
}
