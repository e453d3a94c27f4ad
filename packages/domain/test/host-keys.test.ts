import type { BrowserKeychain } from '@keyward/contract/browser';
import type { SharedKey } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { compileBrowserRules } from '../src/browser-rules.ts';
import { compileDnsPolicy, decideDnsName } from '../src/dns-policy.ts';
import { asciiHost, HostMatcher, hostHasDomainPattern, hostKeyPlan } from '../src/host-keys.ts';
import { isAllowed } from './dnr-evaluator.ts';

// Issue 33: one meaning of a key for a host name, shared by Keyward for Chrome's rule compiler and
// Keyward DNS. The same table decides both: the browser through its compiled DNR rules (a main
// frame at https://<host>/), DNS through its policy (the query name <host>).

const web = { type: 'webBrowsers' } as const;
const every = { type: 'unrestricted' } as const;
const oneApp = {
  type: 'single',
  single: { type: 'bundleId', bundleId: 'com.example.app' },
} as const;

type Row = [key: SharedKey, host: string, allowed: boolean];

const TABLE: Row[] = [
  // domain: the domain, www. + domain, a www. domain without its www.
  [{ type: 'domain', domain: 'example.com', scope: web }, 'example.com', true],
  [{ type: 'domain', domain: 'example.com', scope: web }, 'www.example.com', true],
  [{ type: 'domain', domain: 'example.com', scope: web }, 'cdn.example.com', false],
  [{ type: 'domain', domain: 'example.com', scope: web }, 'example.com.evil.net', false],
  [{ type: 'domain', domain: 'example.com', scope: web }, 'notexample.com', false],
  [{ type: 'domain', domain: 'www.example.com', scope: web }, 'example.com', true],
  [{ type: 'domain', domain: 'www.example.com', scope: web }, 'www.www.example.com', true],
  [{ type: 'domain', domain: 'Example.COM', scope: every }, 'example.com', true],
  [{ type: 'domain', domain: ' example.com ', scope: every }, 'www.example.com', true],
  [{ type: 'domain', domain: 'bücher.de', scope: every }, 'xn--bcher-kva.de', true],
  // anySubdomain: the domain and every subdomain
  [{ type: 'anySubdomain', domain: 'khanacademy.org', scope: web }, 'khanacademy.org', true],
  [
    { type: 'anySubdomain', domain: 'khanacademy.org', scope: web },
    'cdn.kastatic.khanacademy.org',
    true,
  ],
  [
    { type: 'anySubdomain', domain: 'khanacademy.org', scope: web },
    'khanacademy.org.evil.net',
    false,
  ],
  [{ type: 'anySubdomain', domain: 'khanacademy.org', scope: web }, 'evilkhanacademy.org', false],
  [{ type: 'anySubdomain', domain: 'www.example.org', scope: web }, 'example.org', true],
  [{ type: 'anySubdomain', domain: 'www.example.org', scope: web }, 'a.www.example.org', true],
  [{ type: 'anySubdomain', domain: 'www.example.org', scope: web }, 'a.example.org', false],
  // domainRegex: the pattern searched in the host name, `*` any run
  [{ type: 'domainRegex', pattern: 'wiki*.org', scope: web }, 'en.wikipedia.org', true],
  [{ type: 'domainRegex', pattern: 'wiki*.org', scope: web }, 'wikimedia.org', true],
  [{ type: 'domainRegex', pattern: 'wiki*.org', scope: web }, 'wiki.com', false],
  [{ type: 'domainRegex', pattern: 'wiki*.org', scope: web }, 'wikiorg.com', false],
  [{ type: 'domainRegex', pattern: 'a.b', scope: web }, 'axb.com', false],
  [{ type: 'domainRegex', pattern: 'a.b', scope: web }, 'x.a.b.com', true],
  [{ type: 'domainRegex', pattern: 'cdn**img', scope: web }, 'cdn1.img.net', true],
  [{ type: 'domainRegex', pattern: 'Scratch.MIT', scope: web }, 'scratch.mit.edu', true],
  [{ type: 'domainRegex', pattern: 'a(b|c)', scope: web }, 'ab.com', false],
  // keys that are not a host's, or for one app: never a name
  [{ type: 'domain', domain: 'example.com', scope: oneApp }, 'example.com', false],
  [{ type: 'anySubdomain', domain: 'example.com', scope: oneApp }, 'a.example.com', false],
  [
    { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.example.app' } },
    'example.com',
    false,
  ],
  [{ type: 'path', path: 'example.com/videos', scope: web }, 'example.com', false],
  [{ type: 'domain', domain: 'exa mple.com', scope: web }, 'mple.com', false],
  [{ type: 'domain', domain: 'example.com/path', scope: web }, 'example.com', false],
];

const NOW = new Date('2026-12-01T12:00:00Z');

function browserAllows(key: SharedKey, host: string): boolean {
  const keychains: BrowserKeychain[] = [{ id: 'k', name: 'K', keys: [{ id: 'key', key }] }];
  const compiled = compileBrowserRules({
    keychains,
    now: NOW,
    serverOrigin: 'https://keyward.example',
    blockPageUrl: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/blocked.html',
    timeZoneOffsetMinutes: 0,
  });
  return isAllowed(compiled.rules, { url: `https://${host}/`, type: 'main_frame' });
}

function dnsAllows(key: SharedKey, host: string): boolean {
  const policy = compileDnsPolicy({
    keychains: [{ id: 'k', name: 'K', keys: [{ id: 'key', key }] }],
  });
  return decideDnsName(policy, host, NOW).verdict === 'allow';
}

describe('one key meaning for the browser compiler and DNS', () => {
  test.each(TABLE)('%o on %s → %s', (key, host, allowed) => {
    expect(dnsAllows(key, host)).toBe(allowed);
    // a path key unlocks one page in the browser, never the name: the host row only asks DNS
    if (key.type !== 'path') expect(browserAllows(key, host)).toBe(allowed);
  });

  test('a DNS query name is matched case-blind and without its root dot', () => {
    const key: SharedKey = { type: 'domain', domain: 'example.com', scope: web };
    expect(dnsAllows(key, 'WWW.Example.COM.')).toBe(true);
  });
});

test('asciiHost: the fast path gives what the URL parser gives', () => {
  for (const domain of [
    'example.com',
    'a_b.example',
    'x-1.y-2',
    '123',
    '1.2.3.4',
    '0x7f.1',
    'a.0x10',
    'Bücher.de',
    'a..b',
    '.example.com',
    'example.com.',
    'ex ample.com',
    '-a.b_c',
    'a',
    '',
  ]) {
    let expected: string | undefined;
    try {
      const host = new URL(`http://${domain.toLowerCase()}/`).hostname;
      expected = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(host) ? host : undefined;
    } catch {
      expected = undefined;
    }
    expect(asciiHost(domain), domain).toBe(expected);
  }
});

describe('HostMatcher', () => {
  test.each(TABLE)('addKey(%o) decides %s as add(hostKeyPlan(key)) does', (key, host) => {
    const fromKey = new HostMatcher();
    const fromPlan = new HostMatcher();
    fromKey.addKey(key);
    fromPlan.add(hostKeyPlan(key));
    for (const name of [host, `www.${host}`, host.replace(/^www\./, ''), `a.${host}`]) {
      expect(fromKey.matches(name, 0), name).toBe(fromPlan.matches(name, 0));
    }
  });

  test('addKey: an expiring domain key stops, its www. name with it', () => {
    const matcher = new HostMatcher();
    matcher.addKey({ type: 'domain', domain: 'www.a.com', scope: web }, 1_000);
    for (const name of ['www.a.com', 'a.com', 'www.www.a.com']) {
      expect(matcher.matches(name, 999), name).toBe(true);
      expect(matcher.matches(name, 1_000), name).toBe(false);
    }
  });

  test('an entry stops at its key expiration; the latest of two keys wins', () => {
    const matcher = new HostMatcher();
    const plan = hostKeyPlan({ type: 'domain', domain: 'a.com', scope: web });
    matcher.add(plan, 1_000);
    expect(matcher.matches('a.com', 999)).toBe(true);
    expect(matcher.matches('a.com', 1_000)).toBe(false);
    matcher.add(plan, 5_000);
    expect(matcher.matches('a.com', 4_999)).toBe(true);
  });

  test('plans that are not a host add nothing', () => {
    const matcher = new HostMatcher();
    expect(matcher.add({ kind: 'notAHost' })).toBe(false);
    expect(matcher.add({ kind: 'invalid' })).toBe(false);
    expect(matcher.size).toBe(0);
  });

  test('a pattern search is linear: many stars on a long name answer at once', () => {
    const pattern = `${'a*'.repeat(40)}b`;
    const host = `${'a'.repeat(250)}.c`;
    const started = performance.now();
    expect(hostHasDomainPattern(pattern, host)).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });
});
