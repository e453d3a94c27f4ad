import { describe, expect, test } from 'vitest';
import {
  chromeDnsPolicies,
  createDnsDeviceInput,
  dnsDeviceNameProblem,
  dnsSetupReducer,
  initialDnsSetup,
  windowsDohCommand,
} from './dns-setup';

const DEVICE = {
  id: '0b6f1f3e-5a3c-4d1e-9f0a-1c2d3e4f5a6b',
  dohUrl: 'https://keyward.example/dns-query/0b6f1f3e-5a3c-4d1e-9f0a-1c2d3e4f5a6b',
  dotHostname: '0b6f1f3e-5a3c-4d1e-9f0a-1c2d3e4f5a6b.dns.keyward.example',
};

describe('dnsSetupReducer', () => {
  test('a name is proposed from the child and the kind', () => {
    expect(initialDnsSetup('Emma', 'android')).toEqual({
      step: 'naming',
      name: "Emma's Android phone or tablet",
      withEssentials: true,
      removalPassword: '',
    });
    expect(initialDnsSetup('Emma', 'other')).toMatchObject({
      name: "Emma's device",
      // a router or another device has no essentials keychain to offer
      withEssentials: false,
    });
  });

  test('naming → creating → created', () => {
    let state = initialDnsSetup('Emma', 'ios');
    state = dnsSetupReducer(state, { type: 'nameChanged', name: '  Emma’s iPad  ' });
    state = dnsSetupReducer(state, { type: 'createRequested' });
    expect(state).toEqual({
      step: 'creating',
      name: 'Emma’s iPad',
      withEssentials: true,
      removalPassword: '',
    });
    // a second click while creating changes nothing
    expect(dnsSetupReducer(state, { type: 'createRequested' })).toBe(state);
    state = dnsSetupReducer(state, { type: 'created', device: DEVICE });
    expect(state).toMatchObject({ step: 'created', name: 'Emma’s iPad', device: DEVICE });
    // once created, the name is the device's
    expect(dnsSetupReducer(state, { type: 'nameChanged', name: 'x' })).toBe(state);
  });

  test('a blank name is refused in words, without a request', () => {
    let state = dnsSetupReducer(initialDnsSetup('Emma', 'android'), {
      type: 'nameChanged',
      name: '   ',
    });
    state = dnsSetupReducer(state, { type: 'createRequested' });
    expect(state).toMatchObject({
      step: 'naming',
      name: '   ',
      error: 'Give the device a name, so you know it in the list.',
    });
    // typing again clears the message
    expect(dnsSetupReducer(state, { type: 'nameChanged', name: 'Tab' })).toEqual({
      step: 'naming',
      name: 'Tab',
      withEssentials: true,
      removalPassword: '',
    });
  });

  test('a failure goes back to naming with the message', () => {
    let state = dnsSetupReducer(initialDnsSetup('Emma', 'windows'), { type: 'createRequested' });
    state = dnsSetupReducer(state, { type: 'createFailed', message: 'Too many requests' });
    expect(state).toEqual({
      step: 'naming',
      name: "Emma's Windows computer",
      error: 'Too many requests',
      withEssentials: true,
      removalPassword: '',
    });
  });

  test('the essentials and a removal password reach CreateDnsDevice as chosen', () => {
    const child = '0b6f1f3e-5a3c-4d1e-9f0a-1c2d3e4f5a6b';
    let ios = initialDnsSetup('Emma', 'ios');
    expect(createDnsDeviceInput(child, 'ios', ios)).toEqual({
      childId: child,
      kind: 'ios',
      name: "Emma's iPhone or iPad",
      withEssentials: true,
    });
    ios = dnsSetupReducer(ios, { type: 'essentialsToggled' });
    ios = dnsSetupReducer(ios, { type: 'removalPasswordChanged', password: 'pw' });
    expect(createDnsDeviceInput(child, 'ios', ios)).toEqual({
      childId: child,
      kind: 'ios',
      name: "Emma's iPhone or iPad",
      removalPassword: 'pw',
    });
    // only an Apple profile has a removal password; a router no essentials
    const other = dnsSetupReducer(initialDnsSetup('Emma', 'other'), {
      type: 'removalPasswordChanged',
      password: 'pw',
    });
    expect(createDnsDeviceInput(child, 'other', other)).toEqual({
      childId: child,
      kind: 'other',
      name: "Emma's device",
    });
    // a removal password over 100 characters is refused in words
    const long = dnsSetupReducer(
      dnsSetupReducer(initialDnsSetup('Emma', 'macos'), {
        type: 'removalPasswordChanged',
        password: 'x'.repeat(101),
      }),
      { type: 'createRequested' },
    );
    expect(long).toMatchObject({
      step: 'naming',
      error: 'A removal password can be at most 100 characters.',
    });
  });

  test('names over 100 characters are refused', () => {
    expect(dnsDeviceNameProblem('x'.repeat(101))).toBe(
      "A device's name can be at most 100 characters.",
    );
    expect(dnsDeviceNameProblem('x'.repeat(100))).toBeUndefined();
  });
});

test('the Windows command and the Chrome policies carry the device URL', () => {
  expect(windowsDohCommand(DEVICE.dohUrl)).toBe(
    `Add-DnsClientDohServerAddress -ServerAddress <server IP> -DohTemplate ${DEVICE.dohUrl} -AllowFallbackToUdp $false -AutoUpgrade $true`,
  );
  expect(JSON.parse(chromeDnsPolicies(DEVICE.dohUrl))).toEqual({
    DnsOverHttpsMode: 'secure',
    DnsOverHttpsTemplates: `${DEVICE.dohUrl}{?dns}`,
  });
});
