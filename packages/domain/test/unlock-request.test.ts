import type { UnlockRequest } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { type KeyEditorState, keyEditorStateToSharedKey, newKeyEditorState } from '../src/keys.ts';
import {
  DNS_REQUEST_APP,
  isBrowserApp,
  unlockRequestToKeyEditorState,
} from '../src/unlock-request.ts';

const request = (overrides: Partial<UnlockRequest>): UnlockRequest => ({
  id: '8d7f3a52-4c5e-4d8e-9a3b-2f1e0c9d8b7a',
  userId: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
  userName: 'Lily',
  status: 'pending',
  appCategories: [],
  createdAt: '2024-03-04T12:00:00.000Z',
  ...overrides,
});
const safari = {
  appName: 'Safari',
  appSlug: 'safari',
  appBundleId: 'com.apple.Safari',
  appCategories: ['browser'],
};
const editor = (overrides: Partial<KeyEditorState>): KeyEditorState => ({
  ...newKeyEditorState(),
  ...overrides,
});

describe('unlockRequestToKeyEditorState', () => {
  test.each<[string, UnlockRequest, KeyEditorState]>([
    [
      'issue 33: a Keyward DNS device’s request → a domain key DNS can apply (not an app key)',
      request({ appBundleId: DNS_REQUEST_APP, domain: 'games.example.org' }),
      editor({ address: 'games.example.org', addressType: 'strict', addressScope: 'webBrowsers' }),
    ],
    [
      'url in a browser → exact host of the url, domain key, web browsers',
      request({
        ...safari,
        url: 'https://www.khanacademy.org/math?x=1',
        domain: 'www.khanacademy.org',
      }),
      editor({
        address: 'www.khanacademy.org',
        addressType: 'strict',
        addressScope: 'webBrowsers',
      }),
    ],
    [
      'url wins over a different domain',
      request({ ...safari, url: 'https://Docs.Example.com:8443/a', domain: 'cdn.example.com' }),
      editor({ address: 'docs.example.com', addressType: 'strict' }),
    ],
    [
      'domain only',
      request({ ...safari, domain: 'cdn.example.com' }),
      editor({ address: 'cdn.example.com', addressType: 'strict' }),
    ],
    [
      'ip only → ip address type',
      request({ ...safari, ipAddress: '93.184.216.34' }),
      editor({ address: '93.184.216.34', addressType: 'ip' }),
    ],
    [
      'ipv6 url host → ip address type',
      request({ ...safari, url: 'http://[2001:db8::1]:8080/' }),
      editor({ address: '2001:db8::1', addressType: 'ip' }),
    ],
    [
      'domain from a non-browser app by slug → app key scoped to the address',
      request({
        appName: 'Zoom',
        appSlug: 'zoom',
        appBundleId: 'us.zoom.xos',
        appCategories: ['video'],
        domain: 'zoom.us',
      }),
      editor({
        keyType: 'app',
        appScope: 'address',
        address: 'zoom.us',
        addressType: 'strict',
        appIdentificationType: 'slug',
        appSlug: 'zoom',
        appBundleId: 'us.zoom.xos',
      }),
    ],
    [
      'ip from an unknown app → app key by bundle id, scoped to the ip',
      request({ appBundleId: 'com.example.game', ipAddress: '10.1.2.3' }),
      editor({
        keyType: 'app',
        appScope: 'address',
        address: '10.1.2.3',
        addressType: 'ip',
        appIdentificationType: 'bundleId',
        appBundleId: 'com.example.game',
      }),
    ],
    [
      'app only, known app → app key by slug',
      request({
        appName: 'Minecraft',
        appSlug: 'minecraft',
        appBundleId: 'com.mojang.minecraftlauncher',
      }),
      editor({
        keyType: 'app',
        appScope: 'unrestricted',
        appIdentificationType: 'slug',
        appSlug: 'minecraft',
        appBundleId: 'com.mojang.minecraftlauncher',
      }),
    ],
    [
      'app only, unknown app → app key by bundle id',
      request({ appBundleId: 'com.example.tool' }),
      editor({
        keyType: 'app',
        appScope: 'unrestricted',
        appIdentificationType: 'bundleId',
        appBundleId: 'com.example.tool',
      }),
    ],
    [
      'address with no app at all → domain key for web browsers',
      request({ domain: 'example.com' }),
      editor({ address: 'example.com', addressType: 'strict' }),
    ],
    [
      'the url is normalised (scheme and case)',
      request({ ...safari, url: 'HTTPS://Example.COM' }),
      editor({ address: 'example.com', addressType: 'strict' }),
    ],
    [
      'blank url falls back to the domain',
      request({ ...safari, url: '  ', domain: 'example.org' }),
      editor({ address: 'example.org', addressType: 'strict' }),
    ],
  ])('%s', (_name, input, expected) => {
    expect(unlockRequestToKeyEditorState(input)).toEqual(expected);
  });

  test.each<[UnlockRequest, unknown]>([
    [
      request({ ...safari, url: 'https://m.youtube.com/watch?v=1' }),
      { type: 'domain', domain: 'm.youtube.com', scope: { type: 'webBrowsers' } },
    ],
    [
      request({ appSlug: 'zoom', appCategories: [], domain: 'zoom.us' }),
      {
        type: 'domain',
        domain: 'zoom.us',
        scope: { type: 'single', single: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
      },
    ],
    [
      request({ appBundleId: 'com.example.tool' }),
      { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.example.tool' } },
    ],
    [
      request({ ...safari, url: 'https://www.khanacademy.org/math' }),
      { type: 'domain', domain: 'www.khanacademy.org', scope: { type: 'webBrowsers' } },
    ],
    [
      request({ appBundleId: 'com.example.game', ipAddress: '10.1.2.3' }),
      {
        type: 'ipAddress',
        ipAddress: '10.1.2.3',
        scope: { type: 'single', single: { type: 'bundleId', bundleId: 'com.example.game' } },
      },
    ],
  ])('converts into a valid key: %j', (input, key) => {
    expect(keyEditorStateToSharedKey(unlockRequestToKeyEditorState(input))).toMatchObject({
      ok: true,
      key,
    });
  });

  test.each([
    [['browser'], true],
    [['productivity', 'browser'], true],
    [['video'], false],
    [[], false],
  ])('isBrowserApp(%j) = %s', (appCategories, expected) => {
    expect(isBrowserApp({ appCategories })).toBe(expected);
  });
});
