import { describe, expect, test } from 'vitest';
import {
  DNS_QUIET_AFTER_MS,
  dnsDeviceStatus,
  dnsStatusDetail,
  dnsStatusLabel,
  keysNotForDnsWords,
} from '../src/dns-status.ts';

const now = new Date('2026-12-01T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const HOUR = 60 * 60 * 1000;

describe('a Keyward DNS device status', () => {
  test.each([
    [undefined, 'Not seen yet'],
    ['not a date', 'Not seen yet'],
    [ago(0), 'Filtering'],
    [ago(5 * 60_000), 'Filtering'],
    [ago(DNS_QUIET_AFTER_MS - 1), 'Filtering'],
    [ago(DNS_QUIET_AFTER_MS), 'Not seen for 1 hour'],
    [ago(5 * HOUR + 59 * 60_000), 'Not seen for 5 hours'],
    [ago(47 * HOUR), 'Not seen for 47 hours'],
    [ago(48 * HOUR), 'Not seen for 2 days'],
    [ago(10 * 24 * HOUR), 'Not seen for 10 days'],
  ])('last query %s: %s', (lastQueryAt, label) => {
    expect(dnsStatusLabel(dnsDeviceStatus(lastQueryAt, now))).toBe(label);
  });

  test('the detail says when it last asked, or what to do', () => {
    expect(dnsStatusDetail(dnsDeviceStatus(ago(3 * 60_000), now), now)).toBe(
      'Last query 3 minutes ago',
    );
    expect(dnsStatusDetail(dnsDeviceStatus(undefined, now), now)).toMatch(/finish its setup/);
  });

  test('keys DNS cannot enforce are told in words, and nothing when there are none', () => {
    expect(keysNotForDnsWords(0)).toBeUndefined();
    expect(keysNotForDnsWords(1)).toMatch(/^1 of this child’s keys does not apply/);
    expect(keysNotForDnsWords(3)).toMatch(
      /^3 of this child’s keys do not apply.*a path.*one app.*IP address/,
    );
  });
});
