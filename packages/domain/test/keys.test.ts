import type { SharedKey } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  type AddressType,
  appNamesOf,
  commentPreview,
  defaultExpiration,
  describeKey,
  describeKeyNamingApps,
  INVALID_ADDRESS_HINT,
  IP_ADDRESS_HINT,
  isIpAddress,
  isLargeSharedHost,
  isStepValid,
  isValidHostname,
  type KeyEditorState,
  keyAddress,
  keyProblem,
  type KeyWizardStep,
  keyEditorStateToSharedKey,
  LARGE_SHARED_HOSTS,
  newKeyEditorState,
  nextStep,
  normaliseAddress,
  previousStep,
  SUBDOMAIN_EXAMPLES,
  sharedKeyToKeyEditorState,
  subdomainExamplesFor,
  validateAddress,
  validateSharedKey,
  websiteDomain,
  wizardSteps,
  wwwHint,
} from '../src/keys.ts';

const website = (overrides: Partial<KeyEditorState>): KeyEditorState => ({
  ...newKeyEditorState(),
  ...overrides,
});
const app = (overrides: Partial<KeyEditorState>): KeyEditorState => ({
  ...newKeyEditorState(),
  keyType: 'app',
  ...overrides,
});

describe('normaliseAddress', () => {
  test.each([
    ['example.com', 'example.com'],
    ['  Example.COM  ', 'example.com'],
    ['https://example.com', 'example.com'],
    ['http://example.com/', 'example.com'],
    ['ftp://files.example.com/pub', 'files.example.com'],
    ['chrome-extension://abc.example.com/x', 'abc.example.com'],
    ['https://www.example.com/path/to?q=1#top', 'www.example.com'],
    ['example.com?query=1', 'example.com'],
    ['example.com#section', 'example.com'],
    ['example.com:8080', 'example.com'],
    ['https://example.com:8443/login', 'example.com'],
    ['https://user:pass@example.com/', 'example.com'],
    ['//cdn.example.com/lib.js', 'cdn.example.com'],
    ['192.168.1.1:8080', '192.168.1.1'],
    ['[::1]:80', '::1'],
    ['http://[2001:db8::1]:8080/x', '2001:db8::1'],
    ['2001:db8::1', '2001:db8::1'],
    ['FE80::1%en0', 'fe80::1%en0'],
    ['*.Example.com/', '*.example.com'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normaliseAddress(input)).toBe(expected);
  });
});

describe('hostname limits', () => {
  const label63 = 'a'.repeat(63);
  test.each([
    ['example.com', true],
    [`${label63}.com`, true],
    [`${'a'.repeat(64)}.com`, false],
    ['a..com', false],
    ['.example.com', false],
    ['-bad.com', false],
    ['bad-.com', false],
    ['exa mple.com', false],
    ['Example.com', false],
    [[label63, label63, label63, 'a'.repeat(57), 'com'].join('.'), true], // 253 characters
    [[label63, label63, label63, 'a'.repeat(58), 'com'].join('.'), false], // 254 characters
    ['bücher.de', true],
  ])('%j valid: %s', (hostname, expected) => {
    expect(isValidHostname(hostname)).toBe(expected);
  });
});

describe('isIpAddress', () => {
  test.each([
    ['1.2.3.4', true],
    ['255.255.255.255', true],
    ['256.1.1.1', false],
    ['1.2.3', false],
    ['01.2.3.4', false],
    ['::1', true],
    ['::', true],
    ['2001:db8::1', true],
    ['2001:0db8:0000:0000:0000:ff00:0042:8329', true],
    ['2001:db8::1::2', false],
    ['1:2:3:4:5:6:7:8:9', false],
    ['fe80::1%en0', true],
    ['::ffff:192.0.2.128', true],
    ['gggg::1', false],
    ['example.com', false],
  ])('%j → %s', (address, expected) => {
    expect(isIpAddress(address)).toBe(expected);
  });
});

describe('validateAddress', () => {
  test.each<[string, AddressType, true | string]>([
    ['example.com', 'standard', true],
    ['www.example.com', 'standard', true],
    ['bbc.co.uk', 'standard', true],
    ['foo.github.io', 'standard', true],
    ['github.io', 'strict', true],
    ['khanacademy.org', 'strict', true],
    ['co.uk', 'standard', INVALID_ADDRESS_HINT],
    ['com', 'standard', INVALID_ADDRESS_HINT],
    ['localhost', 'standard', INVALID_ADDRESS_HINT],
    ['example.notarealtld', 'standard', INVALID_ADDRESS_HINT],
    ['exa mple.com', 'strict', INVALID_ADDRESS_HINT],
    ['', 'standard', INVALID_ADDRESS_HINT],
    ['1.2.3.4', 'standard', IP_ADDRESS_HINT],
    ['2001:db8::1', 'strict', IP_ADDRESS_HINT],
    ['1.2.3.4', 'ip', true],
    ['fe80::1%en0', 'ip', true],
    ['example.com', 'ip', INVALID_ADDRESS_HINT],
    ['300.1.1.1', 'ip', INVALID_ADDRESS_HINT],
    ['*.example.com', 'domainRegex', true],
    ['cdn-*.example.com', 'domainRegex', true],
    ['*.*.example.com', 'domainRegex', true],
    ['example.com', 'domainRegex', INVALID_ADDRESS_HINT],
    ['*.com', 'domainRegex', INVALID_ADDRESS_HINT],
    ['*', 'domainRegex', INVALID_ADDRESS_HINT],
    ['*.co.uk', 'domainRegex', INVALID_ADDRESS_HINT],
    ['*.github.io', 'domainRegex', INVALID_ADDRESS_HINT],
    ['*.bbc.co.uk', 'domainRegex', true],
    ['google.*', 'domainRegex', INVALID_ADDRESS_HINT],
    ['*.exa mple.com', 'domainRegex', INVALID_ADDRESS_HINT],
  ])('%j as %s', (address, addressType, expected) => {
    const result = validateAddress(address, addressType);
    if (expected === true) expect(result).toEqual({ ok: true });
    else expect(result).toEqual({ ok: false, hint: expected });
  });
});

describe('large shared hosts', () => {
  test('the list is the one of ARCHITECTURE decision (3)', () => {
    expect(LARGE_SHARED_HOSTS).toHaveLength(37);
    expect(new Set(LARGE_SHARED_HOSTS).size).toBe(37);
  });

  test.each([
    ['youtube.com', true],
    ['m.youtube.com', true],
    ['www.youtube.com', true],
    ['rr3---sn-abc.googlevideo.com', true],
    ['myblog.blogspot.com', true],
    ['x.com', true],
    ['notyoutube.com', false],
    ['youtube.com.evil.net', false],
    ['khanacademy.org', false],
    ['box.com', false],
  ])('%j → %s', (domain, expected) => {
    expect(isLargeSharedHost(domain)).toBe(expected);
  });
});

describe('keyEditorStateToSharedKey', () => {
  test.each<[string, KeyEditorState, SharedKey]>([
    [
      'standard website key in browsers (a leading www. is left out)',
      website({ address: 'https://www.KhanAcademy.org/math' }),
      { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
    ],
    [
      'standard key on a large shared host becomes exact',
      website({ address: 'youtube.com' }),
      { type: 'domain', domain: 'youtube.com', scope: { type: 'webBrowsers' } },
    ],
    [
      'standard key on a subdomain of a large shared host becomes exact',
      website({ address: 'm.youtube.com', addressScope: 'unrestricted' }),
      { type: 'domain', domain: 'm.youtube.com', scope: { type: 'unrestricted' } },
    ],
    [
      'strict key',
      website({ address: 'example.com', addressType: 'strict' }),
      { type: 'domain', domain: 'example.com', scope: { type: 'webBrowsers' } },
    ],
    [
      'ip key, any app',
      website({ address: '10.0.0.1:443', addressType: 'ip', addressScope: 'unrestricted' }),
      { type: 'ipAddress', ipAddress: '10.0.0.1', scope: { type: 'unrestricted' } },
    ],
    [
      'ipv6 key',
      website({ address: '[2001:db8::1]:80', addressType: 'ip' }),
      { type: 'ipAddress', ipAddress: '2001:db8::1', scope: { type: 'webBrowsers' } },
    ],
    [
      'pattern key',
      website({ address: '*.khanacademy.org', addressType: 'domainRegex' }),
      { type: 'domainRegex', pattern: '*.khanacademy.org', scope: { type: 'webBrowsers' } },
    ],
    [
      'website key for one app by slug',
      website({ address: 'zoom.us', addressScope: 'singleApp', appSlug: 'zoom' }),
      {
        type: 'anySubdomain',
        domain: 'zoom.us',
        scope: { type: 'single', single: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
      },
    ],
    [
      'website key for one app by bundle id',
      website({
        address: 'zoom.us',
        addressScope: 'singleApp',
        appIdentificationType: 'bundleId',
        appBundleId: ' us.zoom.xos ',
      }),
      {
        type: 'anySubdomain',
        domain: 'zoom.us',
        scope: { type: 'single', single: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
      },
    ],
    [
      'app key with full access by slug',
      app({ appSlug: 'minecraft' }),
      { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'minecraft' } },
    ],
    [
      'app key with full access by bundle id',
      app({ appIdentificationType: 'bundleId', appBundleId: 'com.mojang.minecraft' }),
      { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.mojang.minecraft' } },
    ],
    [
      'app key for one address',
      app({ appSlug: 'minecraft', appScope: 'address', address: 'minecraft.net' }),
      {
        type: 'anySubdomain',
        domain: 'minecraft.net',
        scope: {
          type: 'single',
          single: { type: 'identifiedAppSlug', identifiedAppSlug: 'minecraft' },
        },
      },
    ],
    [
      'app key for one IP address',
      app({
        appIdentificationType: 'bundleId',
        appBundleId: 'com.example.game',
        appScope: 'address',
        address: '8.8.8.8',
        addressType: 'ip',
      }),
      {
        type: 'ipAddress',
        ipAddress: '8.8.8.8',
        scope: { type: 'single', single: { type: 'bundleId', bundleId: 'com.example.game' } },
      },
    ],
  ])('%s', (_name, state, expected) => {
    const result = keyEditorStateToSharedKey(state);
    expect(result).toMatchObject({ ok: true, key: expected });
  });

  test.each<[string, KeyEditorState, string]>([
    ['empty address', website({ address: '' }), 'Enter a website address.'],
    ['too short', website({ address: 'a.b' }), "'a.b' is not a valid website address."],
    ['no dot', website({ address: 'example' }), "'example' is not a valid website address."],
    ['not registrable', website({ address: 'co.uk' }), "'co.uk' is not a valid website address."],
    ['ip under standard', website({ address: '1.2.3.4' }), IP_ADDRESS_HINT],
    [
      'bad ip',
      website({ address: '1.2.3.999', addressType: 'ip' }),
      "'1.2.3.999' is not a valid IP address.",
    ],
    [
      'pattern without *',
      website({ address: 'example.com', addressType: 'domainRegex' }),
      "'example.com' is not a valid website address.",
    ],
    [
      'single app without a chosen app',
      website({ address: 'zoom.us', addressScope: 'singleApp' }),
      'Choose an app.',
    ],
    ['app key without a chosen app', app({}), 'Choose an app.'],
    [
      'bundle id too short',
      app({ appIdentificationType: 'bundleId', appBundleId: 'ab' }),
      'Enter a bundle id of at least 3 characters.',
    ],
    [
      'app key for one address without a valid address',
      app({ appSlug: 'zoom', appScope: 'address', address: 'nope' }),
      "'nope' is not a valid website address.",
    ],
  ])('refuses: %s', (_name, state, error) => {
    expect(keyEditorStateToSharedKey(state)).toEqual({ ok: false, error });
  });

  test('carries the trimmed comment and the expiration', () => {
    const result = keyEditorStateToSharedKey(
      website({
        address: 'example.com',
        comment: '  homework  ',
        expiration: '2030-01-02T03:04:05.000Z',
      }),
    );
    expect(result).toMatchObject({
      ok: true,
      comment: 'homework',
      expiration: '2030-01-02T03:04:05.000Z',
    });
    const blank = keyEditorStateToSharedKey(website({ address: 'example.com', comment: '   ' }));
    expect(blank).toMatchObject({ ok: true, comment: undefined, expiration: undefined });
  });
});

describe('round trips', () => {
  const keys: SharedKey[] = [
    { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
    { type: 'anySubdomain', domain: 'example.com', scope: { type: 'unrestricted' } },
    { type: 'domain', domain: 'youtube.com', scope: { type: 'webBrowsers' } },
    { type: 'domain', domain: 'docs.example.com', scope: { type: 'unrestricted' } },
    { type: 'ipAddress', ipAddress: '192.168.0.10', scope: { type: 'webBrowsers' } },
    { type: 'ipAddress', ipAddress: 'fe80::1%en0', scope: { type: 'unrestricted' } },
    { type: 'domainRegex', pattern: '*.khanacademy.org', scope: { type: 'unrestricted' } },
    {
      type: 'anySubdomain',
      domain: 'zoom.us',
      scope: { type: 'single', single: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
    },
    {
      type: 'domain',
      domain: 'zoom.us',
      scope: { type: 'single', single: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
    },
    { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.apple.Music' } },
    { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'slack' } },
  ];

  test.each(keys)('key → editor → key: %j', (key) => {
    const state = sharedKeyToKeyEditorState(key, 'a comment', '2030-01-01T00:00:00.000Z');
    expect(state.comment).toBe('a comment');
    expect(state.expiration).toBe('2030-01-01T00:00:00.000Z');
    expect(keyEditorStateToSharedKey(state)).toMatchObject({ ok: true, key });
  });

  const states: KeyEditorState[] = [
    website({ address: 'example.com' }),
    website({ address: 'example.com', addressType: 'strict', addressScope: 'unrestricted' }),
    website({ address: '1.1.1.1', addressType: 'ip' }),
    website({ address: '*.example.com', addressType: 'domainRegex', comment: 'x' }),
    website({ address: 'zoom.us', addressScope: 'singleApp', appSlug: 'zoom' }),
    website({
      address: 'zoom.us',
      addressScope: 'singleApp',
      appIdentificationType: 'bundleId',
      appBundleId: 'us.zoom.xos',
    }),
    app({ appSlug: 'minecraft' }),
    app({ appIdentificationType: 'bundleId', appBundleId: 'com.mojang.minecraft' }),
  ];

  test.each(states)('editor → key → editor: %j', (state) => {
    const result = keyEditorStateToSharedKey(state);
    if (!result.ok) throw new Error(result.error);
    const back = sharedKeyToKeyEditorState(result.key, result.comment, result.expiration);
    expect(back).toEqual(state);
  });

  test('an app key for one address reopens as the same key through the website single-app form', () => {
    const state = app({ appSlug: 'minecraft', appScope: 'address', address: 'minecraft.net' });
    const first = keyEditorStateToSharedKey(state);
    if (!first.ok) throw new Error(first.error);
    const reopened = sharedKeyToKeyEditorState(first.key);
    expect(reopened).toMatchObject({
      keyType: 'website',
      addressScope: 'singleApp',
      appSlug: 'minecraft',
    });
    expect(keyEditorStateToSharedKey(reopened)).toMatchObject({ ok: true, key: first.key });
  });

  test('a path key opens with its path as a strict address', () => {
    const state = sharedKeyToKeyEditorState({
      type: 'path',
      path: 'example.com/games',
      scope: { type: 'webBrowsers' },
    });
    expect(state).toMatchObject({
      keyType: 'website',
      address: 'example.com/games',
      addressType: 'strict',
    });
    expect(keyEditorStateToSharedKey(state)).toMatchObject({
      ok: true,
      key: { type: 'domain', domain: 'example.com' },
    });
  });
});

describe('validateSharedKey', () => {
  const browsers = { type: 'webBrowsers' } as const;
  test.each<[SharedKey, string | null]>([
    [{ type: 'anySubdomain', domain: 'example.com', scope: browsers }, null],
    [{ type: 'domain', domain: 'youtube.com', scope: browsers }, null],
    [{ type: 'domain', domain: 'm.youtube.com', scope: { type: 'unrestricted' } }, null],
    [
      { type: 'anySubdomain', domain: 'youtube.com', scope: browsers },
      "'youtube.com' is a large shared host: a key can only unlock that exact domain",
    ],
    [
      { type: 'anySubdomain', domain: 'exa mple.com', scope: browsers },
      "'exa mple.com' is not a valid website address",
    ],
    [
      { type: 'domain', domain: 'EXAMPLE.com', scope: browsers },
      "'EXAMPLE.com' is not a valid website address",
    ],
    [
      { type: 'domain', domain: 'https://example.com', scope: browsers },
      "'https://example.com' is not a valid website address",
    ],
    [
      { type: 'domain', domain: '1.2.3.4', scope: browsers },
      "'1.2.3.4' is an IP address: use an IP address key",
    ],
    [{ type: 'ipAddress', ipAddress: '::1', scope: browsers }, null],
    [
      { type: 'ipAddress', ipAddress: 'example.com', scope: browsers },
      "'example.com' is not a valid IP address",
    ],
    [{ type: 'domainRegex', pattern: '*.example.com', scope: browsers }, null],
    [
      { type: 'domainRegex', pattern: 'example.com', scope: browsers },
      "The pattern 'example.com' must contain a *",
    ],
    [
      { type: 'domainRegex', pattern: '*.co.uk', scope: browsers },
      "'*.co.uk' is not a valid website address pattern",
    ],
    [{ type: 'path', path: 'example.com/games', scope: browsers }, null],
    [
      { type: 'path', path: 'nope/games', scope: browsers },
      "'nope' is not a valid website address",
    ],
    [{ type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.app' } }, null],
    [
      { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'ab' } },
      "'ab' is not a valid bundle id: it needs at least 3 characters",
    ],
    [
      { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: ' ' } },
      'The key must name an app',
    ],
    [
      {
        type: 'domain',
        domain: 'example.com',
        scope: { type: 'single', single: { type: 'bundleId', bundleId: 'x' } },
      },
      "'x' is not a valid bundle id: it needs at least 3 characters",
    ],
  ])('%j → %j', (key, expected) => {
    expect(validateSharedKey(key)).toBe(expected);
  });
});

describe('describeKey', () => {
  test.each<[SharedKey, string]>([
    [
      { type: 'domain', domain: 'youtube.com', scope: { type: 'webBrowsers' } },
      'youtube.com (this domain and www. only) in web browsers',
    ],
    [
      { type: 'domainRegex', pattern: '*.khanacademy.org', scope: { type: 'unrestricted' } },
      '*.khanacademy.org in any app',
    ],
    [
      { type: 'anySubdomain', domain: 'example.com', scope: { type: 'webBrowsers' } },
      'example.com and its subdomains in web browsers',
    ],
    [
      { type: 'ipAddress', ipAddress: '1.2.3.4', scope: { type: 'unrestricted' } },
      'IP address 1.2.3.4 in any app',
    ],
    [
      {
        type: 'anySubdomain',
        domain: 'zoom.us',
        scope: { type: 'single', single: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
      },
      'zoom.us and its subdomains in the app us.zoom.xos',
    ],
    [
      { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'minecraft' } },
      'all internet access for the app minecraft',
    ],
    [
      { type: 'path', path: 'example.com/games', scope: { type: 'webBrowsers' } },
      'example.com/games in web browsers',
    ],
  ])('%j → %j', (key, expected) => {
    expect(describeKey(key)).toBe(expected);
  });
});

describe('describeKey with the app catalogue', () => {
  const names = appNamesOf([
    { slug: 'zoom', name: 'Zoom' },
    { slug: 'minecraft', name: 'Minecraft' },
  ]);
  test.each<[SharedKey, string]>([
    [
      { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
      'all internet access for the app Zoom',
    ],
    [
      {
        type: 'anySubdomain',
        domain: 'minecraft.net',
        scope: {
          type: 'single',
          single: { type: 'identifiedAppSlug', identifiedAppSlug: 'minecraft' },
        },
      },
      'minecraft.net and its subdomains in the app Minecraft',
    ],
    // unknown slugs and bundle ids are shown as they are
    [
      { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'gone-app' } },
      'all internet access for the app gone-app',
    ],
    [
      { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
      'all internet access for the app us.zoom.xos',
    ],
  ])('%j → %j', (key, expected) => {
    expect(describeKeyNamingApps(key, names)).toBe(expected);
  });
});

describe("pasted URLs and 'www.'", () => {
  test.each<[string, AddressType, string]>([
    // the measured case: scheme, www, upper case, port and path
    ['https://www.Khanacademy.org:443/x', 'standard', 'khanacademy.org'],
    ['HTTP://WWW.EXAMPLE.COM/Path?q=1#top', 'standard', 'example.com'],
    ['www.bbc.co.uk', 'standard', 'bbc.co.uk'],
    ['https://user:pw@www.example.com:8443', 'standard', 'example.com'],
    // only a leading www. goes, and only when a site remains
    ['docs.www.example.com', 'standard', 'docs.www.example.com'],
    ['www.co.uk', 'standard', 'www.co.uk'],
    ['wwwexample.com', 'standard', 'wwwexample.com'],
    // exact keys keep it: www.example.com and example.com are different hosts
    ['https://www.Khanacademy.org:443/x', 'strict', 'www.khanacademy.org'],
    // large shared hosts unlock only the exact host, which is the www one
    ['https://www.YouTube.com/watch?v=1', 'standard', 'www.youtube.com'],
    ['*.Example.com', 'domainRegex', '*.example.com'],
    ['http://10.0.0.1:8080/', 'ip', '10.0.0.1'],
  ])('%s as %s → %s', (input, addressType, expected) => {
    expect(keyAddress(input, addressType)).toBe(expected);
  });

  test.each<[string, AddressType, SharedKey]>([
    [
      'https://www.Khanacademy.org:443/x',
      'standard',
      { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
    ],
    [
      'https://www.Khanacademy.org:443/x',
      'strict',
      { type: 'domain', domain: 'www.khanacademy.org', scope: { type: 'webBrowsers' } },
    ],
    [
      'www.youtube.com',
      'standard',
      { type: 'domain', domain: 'www.youtube.com', scope: { type: 'webBrowsers' } },
    ],
  ])('the key saved for %s (%s)', (address, addressType, key) => {
    const conversion = keyEditorStateToSharedKey(website({ address, addressType }));
    expect(conversion).toMatchObject({ ok: true, key });
  });

  test.each<[string, string[]]>([
    ['khanacademy.org', [...SUBDOMAIN_EXAMPLES]],
    ['www.youtube.com', SUBDOMAIN_EXAMPLES.filter((example) => example !== 'www')],
    ['images.example.com', SUBDOMAIN_EXAMPLES.filter((example) => example !== 'images')],
  ])('the preview of %s never doubles a prefix', (domain, examples) => {
    expect(subdomainExamplesFor(domain)).toEqual(examples);
    for (const example of subdomainExamplesFor(domain)) {
      expect(`${example}.${domain}`).not.toMatch(/^(\w+)\.\1\./);
    }
  });

  test.each<[AddressType, RegExp | undefined]>([
    ['standard', /'www\.' is left out/],
    ['strict', /different keys/],
    ['ip', undefined],
    ['domainRegex', undefined],
  ])('the hint for %s says what happens to www.', (addressType, expected) => {
    const hint = wwwHint(addressType);
    if (expected) expect(hint).toMatch(expected);
    else expect(hint).toBeUndefined();
  });
});

describe('small helpers', () => {
  test.each([
    ['2024-03-01T10:00:00.000Z', '2024-03-08T10:00:00.000Z'],
    ['2024-12-28T23:30:00.000Z', '2025-01-04T23:30:00.000Z'],
  ])('defaultExpiration(%s) = %s', (now, expected) => {
    expect(defaultExpiration(new Date(now))).toBe(expected);
  });

  test.each([
    ['', ''],
    ['short comment', 'short comment'],
    ['exactly thirty characters long', 'exactly thirty characters long'],
    ['this comment is definitely longer than thirty', 'this comment is definitely lon…'],
    ['  padded  ', 'padded'],
  ])('commentPreview(%j) = %j', (comment, expected) => {
    expect(commentPreview(comment)).toBe(expected);
  });

  test('subdomain examples', () => {
    expect(SUBDOMAIN_EXAMPLES).toEqual(['www', 'images', 'cdn', 'static', 'api', 'docs']);
  });
});

describe('key wizard steps', () => {
  test.each<[string, KeyEditorState, KeyWizardStep[]]>([
    [
      'website key',
      website({}),
      ['SetKeyType', 'WebsiteKey_SetAddress', 'WebsiteKey_SetAppScope', 'Expiration', 'Comment'],
    ],
    [
      'website key for one app',
      website({ addressScope: 'singleApp' }),
      [
        'SetKeyType',
        'WebsiteKey_SetAddress',
        'WebsiteKey_SetAppScope',
        'WebsiteKey_Advanced_ChooseApp',
        'Expiration',
        'Comment',
      ],
    ],
    [
      'app key',
      app({}),
      ['SetKeyType', 'AppKey_ChooseApp', 'AppKey_SetAppScope', 'Expiration', 'Comment'],
    ],
    [
      'app key for one address',
      app({ appScope: 'address' }),
      [
        'SetKeyType',
        'AppKey_ChooseApp',
        'AppKey_SetAppScope',
        'AppKey_Advanced_SetAddress',
        'Expiration',
        'Comment',
      ],
    ],
  ])('%s', (_name, state, steps) => {
    expect(wizardSteps(state)).toEqual(steps);
  });

  test.each<[KeyWizardStep, KeyEditorState, boolean]>([
    ['SetKeyType', website({}), true],
    ['WebsiteKey_SetAddress', website({ address: '' }), false],
    ['WebsiteKey_SetAddress', website({ address: 'exa' }), false],
    ['WebsiteKey_SetAddress', website({ address: 'https://example.com/x' }), true],
    ['WebsiteKey_SetAddress', website({ address: '1.2.3.4' }), false],
    ['WebsiteKey_SetAddress', website({ address: '::1', addressType: 'ip' }), true],
    ['WebsiteKey_SetAppScope', website({ addressScope: 'unrestricted' }), true],
    ['WebsiteKey_Advanced_ChooseApp', website({ addressScope: 'singleApp' }), false],
    [
      'WebsiteKey_Advanced_ChooseApp',
      website({ addressScope: 'singleApp', appSlug: 'zoom' }),
      true,
    ],
    ['AppKey_ChooseApp', app({ appIdentificationType: 'bundleId', appBundleId: 'co' }), false],
    ['AppKey_ChooseApp', app({ appIdentificationType: 'bundleId', appBundleId: 'com' }), true],
    ['AppKey_Advanced_SetAddress', app({ appScope: 'address', address: 'minecraft.net' }), true],
    ['AppKey_Advanced_SetAddress', app({ appScope: 'address', address: 'minecraft' }), false],
    ['Expiration', website({ expiration: undefined }), true],
    ['Expiration', website({ expiration: '2030-01-01T00:00:00.000Z' }), true],
    ['Expiration', website({ expiration: 'not a date' }), false],
    ['Comment', website({ comment: '' }), true],
  ])('%s valid for %j: %s', (step, state, expected) => {
    expect(isStepValid(step, state)).toBe(expected);
  });

  test.each<[KeyWizardStep, KeyEditorState, KeyWizardStep | undefined, KeyWizardStep | undefined]>([
    ['SetKeyType', website({}), 'WebsiteKey_SetAddress', undefined],
    ['SetKeyType', app({}), 'AppKey_ChooseApp', undefined],
    ['WebsiteKey_SetAppScope', website({}), 'Expiration', 'WebsiteKey_SetAddress'],
    [
      'WebsiteKey_SetAppScope',
      website({ addressScope: 'singleApp' }),
      'WebsiteKey_Advanced_ChooseApp',
      'WebsiteKey_SetAddress',
    ],
    ['AppKey_SetAppScope', app({}), 'Expiration', 'AppKey_ChooseApp'],
    [
      'AppKey_SetAppScope',
      app({ appScope: 'address' }),
      'AppKey_Advanced_SetAddress',
      'AppKey_ChooseApp',
    ],
    ['Expiration', app({ appScope: 'address' }), 'Comment', 'AppKey_Advanced_SetAddress'],
    ['Comment', website({}), undefined, 'Expiration'],
    ['AppKey_ChooseApp', website({}), undefined, undefined],
  ])('around %s for %j: next %s, previous %s', (step, state, next, previous) => {
    expect(nextStep(step, state)).toBe(next);
    expect(previousStep(step, state)).toBe(previous);
  });
});

// issue 20: the iOS allowed/blocked domains take the wizard's address rules
describe('websiteDomain', () => {
  test.each<[string, string]>([
    ['https://Wikipedia.org/wiki/Cat', 'wikipedia.org'],
    ['  wikipedia.org  ', 'wikipedia.org'],
    ['WIKIPEDIA.ORG', 'wikipedia.org'],
    ['http://www.khanacademy.org:8080/?q=1#top', 'khanacademy.org'],
    ['www.khanacademy.org', 'khanacademy.org'],
    ['user:secret@scratch.mit.edu/projects', 'scratch.mit.edu'],
    ['//en.wikipedia.org/wiki/Cat', 'en.wikipedia.org'],
    ['www.youtube.com', 'www.youtube.com'],
    ['www.co.uk', 'www.co.uk'],
    ['bbc.co.uk/news', 'bbc.co.uk'],
    ['example.github.io', 'example.github.io'],
  ])('%j → %j', (input, domain) => {
    expect(websiteDomain(input)).toEqual({ ok: true, domain });
  });

  test.each<[string, string]>([
    ['', 'Enter a website address.'],
    ['https://', 'Enter a website address.'],
    ['wikipedia', "'wikipedia' is not a valid website address."],
    ['exa mple.com', "'exa mple.com' is not a valid website address."],
    ['*.example.com', "'*.example.com' is not a valid website address."],
    ['co.uk', "'co.uk' is not a valid website address."],
    [
      '192.168.1.10',
      "'192.168.1.10' is an IP address. Enter a website address, such as khanacademy.org.",
    ],
    ['https://[::1]/', "'::1' is an IP address. Enter a website address, such as khanacademy.org."],
  ])('%j is refused: %s', (input, error) => {
    expect(websiteDomain(input)).toEqual({ ok: false, error });
  });
});

describe('keyProblem (issue 32: why a key cannot be saved, and what would work)', () => {
  test.each<[string, Partial<KeyEditorState>, RegExp | undefined, RegExp | undefined]>([
    ['a good website', { address: 'khanacademy.org' }, undefined, undefined],
    [
      'a local name',
      { address: 'intranet' },
      /'intranet' is a name on a local network/,
      /IP address/,
    ],
    [
      'a reserved ending',
      { address: 'games.test' },
      /'games.test' does not end in a public domain ending \('.test'/,
      /app key/,
    ],
    ['.local', { address: 'printer.local' }, /public domain ending/, /IP address/],
    ['an IP typed as a website', { address: '10.0.0.7' }, /is an IP address/, /Advanced/],
    ['nothing typed', { address: '' }, /Enter a website address/, /khanacademy.org/],
    [
      'an app key without its app',
      { keyType: 'app', appScope: 'unrestricted' },
      /Choose an app/,
      /step above/,
    ],
  ])('%s', (_label, overrides, reason, whatWorks) => {
    const problem = keyProblem(website(overrides));
    if (reason === undefined) {
      expect(problem).toBeUndefined();
    } else {
      expect(problem?.reason).toMatch(reason);
      expect(problem?.whatWorks).toMatch(whatWorks as RegExp);
    }
  });
});
