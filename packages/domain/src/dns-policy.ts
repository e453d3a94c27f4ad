import type { BrowserKeychain } from '@keyward/contract/browser';
import type { PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import { appliesToEveryApp, HostMatcher } from './host-keys.ts';
import { isKeychainActiveAt, isTimeInWindow, localDatePartsOf } from './schedule.ts';

// Issue 33, Keyward DNS: whether a device of kind `dns` may resolve a name. Deny by default, like
// every Keyward filter: a name resolves only while a key in force for the child unlocks it.
//
//   1. system names (the Keyward server's own name, the operating systems' connectivity checks):
//      always, even in downtime, so a device stays online and can reach the ask page;
//   1b. a pause (issue 34): nothing else, like downtime, whatever else is granted;
//   2. a granted suspension that has not ended: everything (the parent chose to turn the filter
//      off; it wins over downtime, as on the Mac and in Keyward for Chrome);
//   3. downtime: nothing else;
//   4. a key of a keychain in force now (its schedule) and not expired: `domain`, `anySubdomain`
//      and `domainRegex` keys for every app or for web browsers (DNS cannot tell apps apart, so a
//      browsers-only key unlocks the name for every app). Keys DNS cannot enforce (a path, an IP
//      address, one app) do not apply: they are counted in `keysNotForDns`.
//
// The policy is compiled once per device (when its keys change) and decided per query with the
// query's `now`, so schedules, expirations, downtime and a suspension's end need no recompile.

export interface DnsPolicyInput {
  keychains: readonly BrowserKeychain[];
  downtime?: PlainTimeWindow | undefined;
  /** a granted suspension's end (ISO date) */
  suspensionEndsAt?: string | undefined;
  /** issue 34: the parent paused the internet until this instant (ms; Infinity: until resumed) */
  pausedUntilMs?: number | undefined;
  /** follows Date#getTimezoneOffset (the family's time zone); absent: UTC */
  timeZoneOffsetMinutes?: number | undefined;
  /** names that always resolve, with every subdomain (lowercase) */
  systemDomains?: readonly string[];
  /** names that always resolve, exactly (lowercase) */
  systemHosts?: readonly string[];
}

interface CompiledKeychain {
  schedule: RuleSchedule | undefined;
  matcher: HostMatcher;
}

export interface DnsPolicy {
  readonly system: HostMatcher;
  readonly keychains: readonly CompiledKeychain[];
  readonly downtime: PlainTimeWindow | undefined;
  readonly suspensionEndsAtMs: number | undefined;
  readonly pausedUntilMs: number | undefined;
  readonly timeZoneOffsetMinutes: number;
  /** keys DNS cannot apply (a path, an IP address, one app, an invalid domain) */
  readonly keysNotForDns: number;
  /** keys that became host rules */
  readonly hostKeys: number;
}

export type DnsDecision =
  | { verdict: 'allow'; reason: 'system' | 'suspension' | 'key' }
  | { verdict: 'block'; reason: 'downtime' | 'noKey' };

export function compileDnsPolicy(input: DnsPolicyInput): DnsPolicy {
  const system = new HostMatcher();
  for (const domain of input.systemDomains ?? []) {
    system.add({ kind: 'subdomains', domain, exactHosts: [] });
  }
  if (input.systemHosts?.length) system.add({ kind: 'exactHosts', hosts: [...input.systemHosts] });

  // keychains with the same schedule share one matcher
  const bySchedule = new Map<string, CompiledKeychain>();
  let keysNotForDns = 0;
  let hostKeys = 0;
  for (const keychain of input.keychains) {
    const scheduleKey = JSON.stringify(keychain.schedule ?? null);
    let compiled = bySchedule.get(scheduleKey);
    for (const key of keychain.keys) {
      if (!appliesToEveryApp(key.key)) {
        keysNotForDns++;
        continue;
      }
      if (!compiled) {
        compiled = { schedule: keychain.schedule, matcher: new HostMatcher() };
        bySchedule.set(scheduleKey, compiled);
      }
      let until = Number.POSITIVE_INFINITY;
      if (key.expiration) {
        const parsed = Date.parse(key.expiration);
        if (!Number.isNaN(parsed)) until = parsed;
      }
      if (compiled.matcher.addKey(key.key, until)) hostKeys++;
      else keysNotForDns++;
    }
  }
  const endsAt = input.suspensionEndsAt ? Date.parse(input.suspensionEndsAt) : Number.NaN;
  return {
    system,
    keychains: [...bySchedule.values()],
    downtime: input.downtime,
    suspensionEndsAtMs: Number.isNaN(endsAt) ? undefined : endsAt,
    pausedUntilMs: input.pausedUntilMs,
    timeZoneOffsetMinutes: input.timeZoneOffsetMinutes ?? 0,
    keysNotForDns,
    hostKeys,
  };
}

/** A query name as the policy matches it: lowercase, without the root's trailing dot. */
export function normalizeQueryName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '');
}

export function decideDnsName(policy: DnsPolicy, queryName: string, now: Date): DnsDecision {
  const host = normalizeQueryName(queryName);
  const nowMs = now.getTime();
  if (policy.system.matches(host, nowMs)) return { verdict: 'allow', reason: 'system' };
  // issue 34: a pause blocks everything like downtime, and wins over a suspension (the parent's
  // latest word: "stop now")
  if (policy.pausedUntilMs !== undefined && policy.pausedUntilMs > nowMs) {
    return { verdict: 'block', reason: 'downtime' };
  }
  if (policy.suspensionEndsAtMs !== undefined && policy.suspensionEndsAtMs > nowMs) {
    return { verdict: 'allow', reason: 'suspension' };
  }
  const local = localDatePartsOf(now, policy.timeZoneOffsetMinutes);
  if (policy.downtime && isTimeInWindow(policy.downtime, local)) {
    return { verdict: 'block', reason: 'downtime' };
  }
  for (const keychain of policy.keychains) {
    if (keychain.schedule && !isKeychainActiveAt(keychain.schedule, local)) continue;
    if (keychain.matcher.matches(host, nowMs)) return { verdict: 'allow', reason: 'key' };
  }
  return { verdict: 'block', reason: 'noKey' };
}

/**
 * Names a device must always resolve to stay online (issue 33, docs/dns.md): the operating
 * systems' connectivity checks. Sources: AOSP NetworkStack config and DnsResolver (Android),
 * support.apple.com/101555 (Apple), techcommunity.microsoft.com NCSI (Windows).
 */
export const CONNECTIVITY_CHECK_HOSTS: readonly string[] = [
  // Android: captive-portal probes
  'connectivitycheck.gstatic.com',
  'connectivitycheck.android.com',
  'play.googleapis.com',
  // Apple: captive portal and time
  'captive.apple.com',
  'time.apple.com',
  'time-ios.apple.com',
  'time-macos.apple.com',
  // Windows: NCSI
  'www.msftconnecttest.com',
  'ipv6.msftconnecttest.com',
  'dns.msftncsi.com',
  'time.windows.com',
];

/** Subtrees that always resolve: Android's Private DNS probe `<random>-dnsotls-ds.metric.gstatic.com`. */
export const CONNECTIVITY_CHECK_DOMAINS: readonly string[] = ['metric.gstatic.com'];
