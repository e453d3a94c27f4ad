import { describe, expect, test } from 'vitest';
import {
  chromeDnsPolicies,
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
    });
    expect(initialDnsSetup('Emma', 'other').name).toBe("Emma's device");
  });

  test('naming → creating → created', () => {
    let state = initialDnsSetup('Emma', 'ios');
    state = dnsSetupReducer(state, { type: 'nameChanged', name: '  Emma’s iPad  ' });
    state = dnsSetupReducer(state, { type: 'createRequested' });
    expect(state).toEqual({ step: 'creating', name: 'Emma’s iPad' });
    // a second click while creating changes nothing
    expect(dnsSetupReducer(state, { type: 'createRequested' })).toBe(state);
    state = dnsSetupReducer(state, { type: 'created', device: DEVICE });
    expect(state).toEqual({ step: 'created', name: 'Emma’s iPad', device: DEVICE });
    // once created, the name is the device's
    expect(dnsSetupReducer(state, { type: 'nameChanged', name: 'x' })).toBe(state);
  });

  test('a blank name is refused in words, without a request', () => {
    let state = dnsSetupReducer(initialDnsSetup('Emma', 'android'), {
      type: 'nameChanged',
      name: '   ',
    });
    state = dnsSetupReducer(state, { type: 'createRequested' });
    expect(state).toEqual({
      step: 'naming',
      name: '   ',
      error: 'Give the device a name, so you know it in the list.',
    });
    // typing again clears the message
    expect(dnsSetupReducer(state, { type: 'nameChanged', name: 'Tab' })).toEqual({
      step: 'naming',
      name: 'Tab',
    });
  });

  test('a failure goes back to naming with the message', () => {
    let state = dnsSetupReducer(initialDnsSetup('Emma', 'windows'), { type: 'createRequested' });
    state = dnsSetupReducer(state, { type: 'createFailed', message: 'Too many requests' });
    expect(state).toEqual({
      step: 'naming',
      name: "Emma's Windows computer",
      error: 'Too many requests',
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
