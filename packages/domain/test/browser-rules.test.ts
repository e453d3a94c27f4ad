import type { BrowserKey, BrowserKeychain } from '@keyward/contract/browser';
import type { RuleSchedule, SharedKey } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  reportedBrowserState,
  type BrowserRulesInput,
  compileBlockEverything,
  compileBrowserRules,
  type DnrResourceType,
  type DnrRule,
} from '../src/browser-rules.ts';

import { evaluate, isAllowed } from './dnr-evaluator.ts';

// The compiled DNR rules must decide every request exactly like the Mac filter. Two small
// reference implementations meet here: a DNR evaluator (Chrome's matching, as documented, in
// dnr-evaluator.ts) and the Mac's key semantics, written directly from the description of the
// Swift filter.

const EXTENSION_ID = 'abcdefghijklmnopabcdefghijklmnop';
const BLOCK_PAGE = `chrome-extension://${EXTENSION_ID}/blocked.html`;
const SERVER = 'http://127.0.0.1:8080';

// --- the Mac's semantics ------------------------------------------------------------------------

function macDomainRule(domain: string, host: string) {
  return (
    host === domain ||
    host === `www.${domain}` ||
    (domain.startsWith('www.') && `www.${host}` === domain)
  );
}

function canonicalIp(ip: string) {
  return new URL(`http://${ip.includes(':') ? `[${ip}]` : ip}/`).hostname;
}

function macKeyAllows(key: SharedKey, href: string): boolean {
  if (key.type === 'skeleton' || key.scope.type === 'single') return false;
  const url = new URL(href);
  const host = url.hostname.toLowerCase();
  switch (key.type) {
    case 'domain':
      return macDomainRule(key.domain.toLowerCase(), host);
    case 'anySubdomain': {
      const domain = key.domain.toLowerCase();
      return macDomainRule(domain, host) || host.endsWith(`.${domain}`);
    }
    case 'domainRegex': {
      const source = key.pattern.toLowerCase().replace(/\./g, '\\.').replace(/\*/g, '.*');
      return new RegExp(source).test(host);
    }
    case 'ipAddress':
      return host === canonicalIp(key.ipAddress);
    case 'path': {
      if (!/^https?:$/.test(url.protocol)) return false;
      const tail = url.href.replace(/^https?:\/\//, '').toLowerCase();
      const path = key.path.toLowerCase();
      const slash = path.indexOf('/');
      const domain = path.slice(0, slash);
      const rest = path.slice(slash + 1);
      if (rest.includes('*')) {
        // The Mac escapes only `.`; a path with other regex characters is escaped as the parent
        // typed it here (the one deliberate difference, see browser-rules.ts).
        const body = rest
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*');
        return new RegExp(`^${domain.replace(/\./g, '\\.')}/${body}$`).test(tail);
      }
      return tail.replace(/\/$/, '') === `${domain}/${rest}`.replace(/\/$/, '');
    }
  }
}

// --- fixtures -----------------------------------------------------------------------------------

const web = { type: 'webBrowsers' } as const;
const everyApp = { type: 'unrestricted' } as const;
let keyNumber = 0;
const browserKey = (key: SharedKey, expiration?: string): BrowserKey => ({
  id: `00000000-0000-4000-8000-${String(++keyNumber).padStart(12, '0')}`,
  key,
  ...(expiration ? { expiration } : {}),
});
const keychain = (keys: BrowserKey[], schedule?: RuleSchedule): BrowserKeychain => ({
  id: crypto.randomUUID(),
  name: 'Homework',
  keys,
  ...(schedule ? { schedule } : {}),
});

const NOW = new Date('2026-11-26T10:00:00Z'); // a Thursday; UTC throughout (offset 0)
const compile = (keychains: BrowserKeychain[], extra: Partial<BrowserRulesInput> = {}) =>
  compileBrowserRules({
    keychains,
    now: NOW,
    serverOrigin: SERVER,
    blockPageUrl: BLOCK_PAGE,
    timeZoneOffsetMinutes: 0,
    ...extra,
  });
const rulesFor = (...keys: SharedKey[]) =>
  compile([keychain(keys.map((k) => browserKey(k)))]).rules;

const KEYS: Record<string, SharedKey> = {
  'domain example.com': { type: 'domain', domain: 'example.com', scope: web },
  'domain www.example.org': { type: 'domain', domain: 'www.example.org', scope: everyApp },
  'domain Uppercase.COM': { type: 'domain', domain: 'Uppercase.COM', scope: web },
  'anySubdomain example.net': { type: 'anySubdomain', domain: 'example.net', scope: web },
  'anySubdomain www.example.io': { type: 'anySubdomain', domain: 'www.example.io', scope: web },
  'domainRegex cdn*.example.dev': { type: 'domainRegex', pattern: 'cdn*.example.dev', scope: web },
  'domainRegex *school*': { type: 'domainRegex', pattern: '*school*', scope: web },
  'ipAddress 192.168.1.20': { type: 'ipAddress', ipAddress: '192.168.1.20', scope: web },
  'ipAddress 2001:db8::1': { type: 'ipAddress', ipAddress: '2001:DB8:0::1', scope: web },
  'path example.edu/courses/*': { type: 'path', path: 'example.edu/courses/*', scope: web },
  'path Example.EDU/Page/': { type: 'path', path: 'Example.EDU/Page/', scope: web },
  'path docs.test/a.b/*.pdf': { type: 'path', path: 'docs.test/a.b/*.pdf', scope: web },
  'path example.edu/search?q=*': { type: 'path', path: 'example.edu/search?q=*', scope: web },
  'domain example.com, one app only': {
    type: 'domain',
    domain: 'example.com',
    scope: { type: 'single', single: { type: 'bundleId', bundleId: 'com.apple.Safari' } },
  },
  skeleton: { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.example.app' } },
};

const URLS = [
  'https://example.com/',
  'http://example.com/a/b?c=d',
  'https://EXAMPLE.com/UP',
  'https://www.example.com/',
  'https://www.www.example.com/',
  'https://shop.example.com/',
  'https://notexample.com/',
  'https://wwwexample.com/',
  'https://example.com.evil.net/',
  'https://evil.net/?u=https://example.com/',
  'https://example.com:8443/port',
  'http://example.com./',
  'https://example.org/',
  'https://www.example.org/',
  'https://a.www.example.org/',
  'https://uppercase.com/',
  'https://example.net/',
  'https://deep.sub.example.net/x',
  'https://example.net.evil.net/',
  'https://notexample.net/',
  'https://example.io/',
  'https://www.example.io/',
  'https://x.www.example.io/',
  'https://x.example.io/',
  'https://cdn.example.dev/',
  'https://cdn7.eu.example.dev/lib.js',
  'https://example.dev/',
  'https://mycdnxexample.dev/',
  'https://cdnx.example.dev.evil.net/',
  'https://evil.net/cdn.example.dev/',
  'https://evil.net/?cdn1.example.dev',
  'https://highschool.edu/',
  'https://evil.net/school',
  'http://192.168.1.20/',
  'http://192.168.1.20:3000/app',
  'http://192.168.1.200/',
  'http://192.168.1.2/',
  'http://[2001:db8::1]/',
  'http://[2001:db8::1]:8080/x',
  'http://[2001:db8::2]/',
  'https://example.edu/courses/math',
  'https://example.edu/courses/',
  'https://example.edu/courses',
  'https://example.edu/COURSES/Math?x=1',
  'https://www.example.edu/courses/math',
  'https://example.edu:444/courses/math',
  'https://evil.net/example.edu/courses/x',
  'https://example.edu/page',
  'https://example.edu/page/',
  'https://example.edu/PAGE',
  'https://example.edu/page?x=1',
  'https://example.edu/page/more',
  'https://example.edu/pages',
  'https://docs.test/a.b/file.pdf',
  'https://docs.test/axb/file.pdf',
  'https://docs.test/a.b/file.pdf?dl=1',
  'https://example.edu/search?q=cats',
  'https://example.edu/searchq=cats',
  'ws://example.com/socket',
  'wss://shop.example.net/live',
  'wss://notexample.net/live',
];

describe('each key decides like the Mac', () => {
  const cases = Object.entries(KEYS).flatMap(([name, key]) =>
    URLS.map((url) => [name, url, key] as const),
  );
  test.each(cases)('%s × %s', (_name, url, key) => {
    const rules = rulesFor(key);
    const isMacAllowed = macKeyAllows(key, url);
    const types: DnrResourceType[] = url.startsWith('ws')
      ? ['websocket']
      : ['main_frame', 'image', 'xmlhttprequest', 'sub_frame'];
    for (const type of types) {
      expect({ type, allowed: isAllowed(rules, { url, type }) }).toEqual({
        type,
        allowed: isMacAllowed,
      });
    }
  });

  test('all keys together allow a URL when any key does', () => {
    const rules = rulesFor(...Object.values(KEYS));
    for (const url of URLS) {
      const isMacAllowed = Object.values(KEYS).some((key) => macKeyAllows(key, url));
      const type = url.startsWith('ws') ? 'websocket' : 'main_frame';
      expect([url, isAllowed(rules, { url, type })]).toEqual([url, isMacAllowed]);
    }
  });
});

describe('the Mac semantics, spelled out', () => {
  test.each<[string, string, boolean]>([
    ['domain example.com', 'https://example.com/', true],
    ['domain example.com', 'https://www.example.com/', true],
    ['domain example.com', 'https://shop.example.com/', false],
    ['domain example.com', 'https://notexample.com/', false],
    ['domain example.com', 'https://wwwexample.com/', false],
    ['domain example.com', 'https://example.com.evil.net/', false],
    ['domain example.com', 'https://evil.net/?u=https://example.com/', false],
    ['domain example.com', 'https://EXAMPLE.com/UP', true],
    ['domain example.com', 'https://example.com:8443/port', true],
    ['domain www.example.org', 'https://example.org/', true],
    ['domain www.example.org', 'https://a.www.example.org/', false],
    ['anySubdomain example.net', 'https://deep.sub.example.net/x', true],
    ['anySubdomain example.net', 'https://notexample.net/', false],
    ['anySubdomain www.example.io', 'https://example.io/', true],
    ['anySubdomain www.example.io', 'https://x.www.example.io/', true],
    ['anySubdomain www.example.io', 'https://x.example.io/', false],
    ['domainRegex cdn*.example.dev', 'https://cdn7.eu.example.dev/lib.js', true],
    ['domainRegex cdn*.example.dev', 'https://evil.net/cdn.example.dev/', false],
    ['domainRegex cdn*.example.dev', 'https://cdnx.example.dev.evil.net/', true],
    ['ipAddress 192.168.1.20', 'http://192.168.1.20:3000/app', true],
    ['ipAddress 192.168.1.20', 'http://192.168.1.200/', false],
    ['ipAddress 2001:db8::1', 'http://[2001:db8::1]:8080/x', true],
    ['path example.edu/courses/*', 'https://example.edu/COURSES/Math?x=1', true],
    ['path example.edu/courses/*', 'https://example.edu/courses', false],
    ['path example.edu/courses/*', 'https://www.example.edu/courses/math', false],
    ['path Example.EDU/Page/', 'https://example.edu/page', true],
    ['path Example.EDU/Page/', 'https://example.edu/PAGE', true],
    ['path Example.EDU/Page/', 'https://example.edu/page?x=1', false],
    ['path Example.EDU/Page/', 'https://example.edu/page/more', false],
    ['path docs.test/a.b/*.pdf', 'https://docs.test/axb/file.pdf', false],
    ['path example.edu/search?q=*', 'https://example.edu/search?q=cats', true],
    ['domain example.com, one app only', 'https://example.com/', false],
  ])('%s × %s → %s', (name, url, expected) => {
    const key = KEYS[name]!;
    expect(macKeyAllows(key, url)).toBe(expected);
    expect(isAllowed(rulesFor(key), { url, type: 'main_frame' })).toBe(expected);
  });
});

describe('always and never', () => {
  const rules = rulesFor();
  test.each<[string, DnrResourceType, string | undefined, boolean]>([
    ['http://127.0.0.1:8080/pairql/browser-filter/CheckIn', 'xmlhttprequest', undefined, true],
    ['ws://127.0.0.1:8080/browser-filter/channel', 'websocket', undefined, true],
    ['http://127.0.0.1:8080/', 'main_frame', undefined, true],
    ['http://127.0.0.1:8081/', 'main_frame', undefined, false],
    ['http://127.0.0.10:8080/', 'main_frame', undefined, false],
    [
      'https://uploads.example-s3.test/put',
      'xmlhttprequest',
      `chrome-extension://${EXTENSION_ID}`,
      true,
    ],
    [
      'https://uploads.example-s3.test/put',
      'xmlhttprequest',
      'chrome-extension://otherextension',
      false,
    ],
    ['https://uploads.example-s3.test/put', 'xmlhttprequest', 'https://some.site', false],
    ['wss://push.example-s3.test/', 'websocket', `chrome-extension://${EXTENSION_ID}`, true],
    // the block page sending the tab to a site does not unlock it
    ['https://games.example/', 'main_frame', `chrome-extension://${EXTENSION_ID}`, false],
    ['https://games.example/frame', 'sub_frame', `chrome-extension://${EXTENSION_ID}`, false],
  ])('%s (%s from %s) allowed: %s', (url, type, initiator, expected) => {
    expect(isAllowed(rules, { url, type, ...(initiator ? { initiator } : {}) })).toBe(expected);
  });

  test('a blocked page is redirected to the block page with its address after the #', () => {
    expect(
      evaluate(rules, { url: 'http://blocked.test:4321/a/b?c=d#frag', type: 'main_frame' }),
    ).toEqual({
      verdict: 'redirect',
      to: `${BLOCK_PAGE}#http://blocked.test:4321/a/b?c=d`,
    });
    expect(evaluate(rules, { url: 'https://blocked.test/x.png', type: 'image' })).toEqual({
      verdict: 'block',
    });
  });

  test('before the service worker writes any rule, the static rules block everything', () => {
    for (const type of ['main_frame', 'image', 'xmlhttprequest'] as const) {
      expect(evaluate([], { url: 'https://example.com/', type }).verdict).toBe('block');
    }
  });

  test('never connected: everything blocked but the extension itself', () => {
    const blocked = compileBlockEverything(BLOCK_PAGE);
    expect(blocked.mode).toBe('notConnected');
    expect(
      evaluate(blocked.rules, { url: 'https://example.com/', type: 'main_frame' }).verdict,
    ).toBe('redirect');
    expect(isAllowed(blocked.rules, { url: 'http://127.0.0.1:8080/', type: 'main_frame' })).toBe(
      false,
    );
    expect(
      isAllowed(blocked.rules, {
        url: 'https://keyward.example/pairql/browser-filter/ConnectBrowser',
        type: 'xmlhttprequest',
        initiator: `chrome-extension://${EXTENSION_ID}`,
      }),
    ).toBe(true);
  });
});

describe('rules are well formed', () => {
  test('ids are unique positive integers, the same for the same keys', () => {
    const keychains = [keychain(Object.values(KEYS).map((k) => browserKey(k)))];
    const first = compile(keychains).rules;
    const ids = first.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
    expect(compile(keychains).rules).toEqual(first);
  });

  test('filters are ASCII, regexes compile, domains are lowercase', () => {
    const rules = rulesFor(...Object.values(KEYS), {
      type: 'anySubdomain',
      domain: 'bücher.de',
      scope: web,
    });
    for (const { condition } of rules) {
      for (const text of [
        condition.urlFilter,
        condition.regexFilter,
        ...(condition.requestDomains ?? []),
      ]) {
        if (text !== undefined) expect(text).toMatch(/^[\x20-\x7e]+$/);
      }
      for (const domain of condition.requestDomains ?? [])
        expect(domain).toBe(domain.toLowerCase());
      if (condition.regexFilter) expect(() => new RegExp(condition.regexFilter!)).not.toThrow();
    }
    expect(isAllowed(rules, { url: 'https://www.bücher.de/', type: 'main_frame' })).toBe(true);
  });

  test.each<[string, SharedKey]>([
    ['a trailing dot', { type: 'domain', domain: 'example.com.', scope: web }],
    ['a leading dot', { type: 'anySubdomain', domain: '.example.com', scope: web }],
    ['an empty label', { type: 'domain', domain: 'example..com', scope: web }],
    ['a space', { type: 'domain', domain: 'exa mple.com', scope: web }],
    ['a star in a domain key', { type: 'domain', domain: '*.example.com', scope: web }],
    ['no host in a path key', { type: 'path', path: '/page', scope: web }],
    ['not an IP address', { type: 'ipAddress', ipAddress: 'example.com', scope: web }],
    ['a pattern with a slash', { type: 'domainRegex', pattern: 'a*/b', scope: web }],
  ])('a key Chrome could not take (%s) is skipped, the others stay', (_name, key) => {
    const odd = browserKey(key);
    const result = compile([keychain([odd, browserKey(example)])]);
    expect(result.skippedKeys).toEqual([{ id: odd.id, reason: 'unsupported' }]);
    expect(allowsExample(result.rules)).toBe(true);
  });

  test('over the caps: regex keys are skipped into skippedKeys, nothing passes a limit', () => {
    const regexKeys = Array.from({ length: 6 }, (_, i) =>
      browserKey({ type: 'domainRegex', pattern: `cdn${i}*.example.dev`, scope: web }),
    );
    const domainKeys = Array.from({ length: 20 }, (_, i) =>
      browserKey({ type: 'domain', domain: `site${i}.example.com`, scope: web }),
    );
    const result = compile([keychain([...regexKeys, ...domainKeys])], {
      limits: { rules: 40, regexRules: 4 },
    });
    expect(result.regexRuleCount).toBe(4);
    expect(result.rules.filter((r) => r.condition.regexFilter).length).toBe(4);
    expect(result.rules.length).toBeLessThanOrEqual(40);
    expect(result.skippedKeys.filter((s) => s.reason === 'regexLimit').map((s) => s.id)).toEqual(
      regexKeys.slice(3).map((k) => k.id),
    );
    expect(result.skippedKeys.some((s) => s.reason === 'ruleLimit')).toBe(true);
  });
});

// --- time ------------------------------------------------------------------------------------------

const ALL_DAYS: RuleSchedule['days'] = {
  sunday: true,
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: true,
};
const schoolHours: RuleSchedule = {
  mode: 'active',
  days: ALL_DAYS,
  window: { start: { hour: 7, minute: 0 }, end: { hour: 17, minute: 0 } },
};
const example = KEYS['domain example.com']!;
const allowsExample = (rules: DnrRule[]) =>
  isAllowed(rules, { url: 'https://example.com/', type: 'main_frame' });

describe('schedules, expirations, downtime, suspension', () => {
  test.each<
    [string, BrowserKeychain[], Partial<BrowserRulesInput>, boolean, string, string | undefined]
  >([
    ['no schedule: always', [keychain([browserKey(example)])], {}, true, 'filtering', undefined],
    [
      'inside school hours: until 17:00',
      [keychain([browserKey(example)], schoolHours)],
      {},
      true,
      'filtering',
      '2026-11-26T17:00:00.000Z',
    ],
    [
      'after school hours: from 07:00 tomorrow',
      [keychain([browserKey(example)], schoolHours)],
      { now: new Date('2026-11-26T18:30:00Z') },
      false,
      'filtering',
      '2026-11-27T07:00:00.000Z',
    ],
    [
      'an inactive schedule is the opposite',
      [keychain([browserKey(example)], { ...schoolHours, mode: 'inactive' })],
      {},
      false,
      'filtering',
      '2026-11-26T17:00:00.000Z',
    ],
    [
      'a key expiring at noon',
      [keychain([browserKey(example, '2026-11-26T12:00:00Z')])],
      {},
      true,
      'filtering',
      '2026-11-26T12:00:00.000Z',
    ],
    [
      'an expired key',
      [keychain([browserKey(example, '2026-11-26T09:59:59Z')])],
      {},
      false,
      'filtering',
      undefined,
    ],
    [
      'the earliest change wins',
      [
        keychain([browserKey(example, '2026-11-26T16:00:00Z')], schoolHours),
        keychain([browserKey(KEYS['anySubdomain example.net']!)], {
          ...schoolHours,
          window: { start: { hour: 11, minute: 30 }, end: { hour: 12, minute: 0 } },
        }),
      ],
      {},
      true,
      'filtering',
      '2026-11-26T11:30:00.000Z',
    ],
    [
      'an app key does not wake the browser up',
      [keychain([browserKey(KEYS['domain example.com, one app only']!, '2026-11-26T11:00:00Z')])],
      {},
      false,
      'filtering',
      undefined,
    ],
    [
      'downtime wrapping midnight, at 22:00: blocked until 05:00',
      [keychain([browserKey(example)])],
      {
        now: new Date('2026-11-26T22:00:00Z'),
        downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      },
      false,
      'downtime',
      '2026-11-27T05:00:00.000Z',
    ],
    [
      'downtime wrapping midnight, at 04:59: blocked until 05:00',
      [keychain([browserKey(example)])],
      {
        now: new Date('2026-11-27T04:59:00Z'),
        downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      },
      false,
      'downtime',
      '2026-11-27T05:00:00.000Z',
    ],
    [
      'before downtime: filtering until 21:00',
      [keychain([browserKey(example)])],
      { downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } } },
      true,
      'filtering',
      '2026-11-26T21:00:00.000Z',
    ],
    [
      'downtime in another time zone (UTC-5: 10:00Z is 05:00 local, just after it)',
      [keychain([browserKey(example)])],
      {
        timeZoneOffsetMinutes: 300,
        downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      },
      true,
      'filtering',
      '2026-11-27T02:00:00.000Z',
    ],
    [
      'a suspension allows everything until it ends',
      [],
      { suspension: { endsAt: '2026-11-26T10:30:00Z', keylogging: false } },
      true,
      'suspended',
      '2026-11-26T10:30:00.000Z',
    ],
    [
      'a suspension wins over downtime',
      [],
      {
        now: new Date('2026-11-26T22:00:00Z'),
        downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
        suspension: { endsAt: '2026-11-26T22:15:00Z', keylogging: true },
      },
      true,
      'suspended',
      '2026-11-26T22:15:00.000Z',
    ],
    [
      'a suspension that ended: filtering again',
      [],
      { suspension: { endsAt: '2026-11-26T10:00:00Z', keylogging: false } },
      false,
      'filtering',
      undefined,
    ],
  ])('%s', (_name, keychains, extra, isExampleAllowed, mode, nextChangeAt) => {
    const result = compile(keychains, extra);
    expect(allowsExample(result.rules)).toBe(isExampleAllowed);
    expect(result.mode).toBe(mode);
    expect(result.nextChangeAt?.toISOString()).toBe(nextChangeAt);
  });

  test('downtime blocks everything but the server', () => {
    const result = compile([keychain([browserKey(KEYS['anySubdomain example.net']!)])], {
      now: new Date('2026-11-26T22:00:00Z'),
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
    });
    expect(isAllowed(result.rules, { url: 'https://example.net/', type: 'main_frame' })).toBe(
      false,
    );
    expect(isAllowed(result.rules, { url: `${SERVER}/`, type: 'main_frame' })).toBe(true);
  });
});

describe('pause and time is up (issue 34)', () => {
  const games = keychain([browserKey(KEYS['anySubdomain example.net']!)]);
  const school = keychain([browserKey(KEYS['domain example.com']!)]);
  const open = (rules: DnrRule[], url: string) => isAllowed(rules, { url, type: 'main_frame' });
  const resetsAt = new Date('2026-11-27T00:00:00Z');

  test('paused until resumed: everything blocked but the server, whatever is granted', () => {
    const result = compile([games, school], {
      pausedUntil: null,
      suspension: { endsAt: '2026-11-26T11:00:00Z', keylogging: false },
    });
    expect(result.mode).toBe('paused');
    expect(result.nextChangeAt).toBeUndefined();
    expect(open(result.rules, 'https://example.net/')).toBe(false);
    expect(open(result.rules, 'https://example.com/')).toBe(false);
    expect(open(result.rules, `${SERVER}/`)).toBe(true);
  });

  test('paused for 15 minutes: blocked until then, then the keys again', () => {
    const until = new Date('2026-11-26T10:15:00Z');
    const paused = compile([games], { pausedUntil: until });
    expect([paused.mode, paused.nextChangeAt?.toISOString()]).toEqual([
      'paused',
      '2026-11-26T10:15:00.000Z',
    ]);
    const after = compile([games], { pausedUntil: until, now: until });
    expect(after.mode).toBe('filtering');
    expect(open(after.rules, 'https://example.net/')).toBe(true);
  });

  test("time's up: only the keychains that don't use up time open, until the reset", () => {
    const result = compile([games, school], {
      timesUp: { exemptKeychainIds: [school.id.toUpperCase()], resetsAt },
    });
    expect(result.mode).toBe('timesUp');
    expect(result.nextChangeAt?.toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(open(result.rules, 'https://example.net/')).toBe(false);
    expect(open(result.rules, 'https://example.com/')).toBe(true);
    expect(open(result.rules, `${SERVER}/`)).toBe(true);
  });

  test("time's up after its reset: filtering as before", () => {
    const result = compile([games, school], {
      now: resetsAt,
      timesUp: { exemptKeychainIds: [], resetsAt },
    });
    expect(result.mode).toBe('filtering');
    expect(open(result.rules, 'https://example.net/')).toBe(true);
  });

  test('states: a pause reports as downtime (what the dashboard shows), time is up as on', () => {
    const at = new Date('2026-11-26T10:15:00Z');
    expect(reportedBrowserState({ mode: 'paused', nextChangeAt: at })).toEqual({
      case: 'downtime',
      ending: '2026-11-26T10:15:00Z',
    });
    expect(reportedBrowserState({ mode: 'timesUp', nextChangeAt: at })).toEqual({ case: 'on' });
  });
});

describe('the state a browser reports (issue 32)', () => {
  const at = new Date('2026-12-01T20:41:15.250Z');
  test.each([
    ['filtering', undefined, { case: 'on' }],
    ['filtering', at, { case: 'on' }],
    ['suspended', at, { case: 'suspended', resuming: '2026-12-01T20:41:15Z' }],
    ['downtime', at, { case: 'downtime', ending: '2026-12-01T20:41:15Z' }],
    ['downtime', undefined, { case: 'downtime' }],
    ['notConnected', undefined, undefined],
  ] as const)('%s (next change %s) → %j', (mode, nextChangeAt, expected) => {
    expect(reportedBrowserState({ mode, nextChangeAt })).toEqual(expected);
  });
});
