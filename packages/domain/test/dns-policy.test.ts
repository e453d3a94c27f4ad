import type { BrowserKeychain } from '@keyward/contract/browser';
import type { PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  CONNECTIVITY_CHECK_DOMAINS,
  CONNECTIVITY_CHECK_HOSTS,
  compileDnsPolicy,
  type DnsDecision,
  type DnsPolicyInput,
  decideDnsName,
} from '../src/dns-policy.ts';

// Issue 33: Keyward DNS's decision, names × keys × schedules × suspension × downtime.

const web = { type: 'webBrowsers' } as const;
// Tuesday 2026-12-01, 16:30 in UTC+1 (getTimezoneOffset -60)
const NOW = new Date('2026-12-01T15:30:00Z');
const OFFSET = -60;
const atLocal = (hhmm: string) => new Date(`2026-12-01T${hhmm}:00+01:00`);

const weekdays = {
  sunday: false,
  monday: true,
  tuesday: true,
  wednesday: true,
  thursday: true,
  friday: true,
  saturday: false,
};
const afterSchool: RuleSchedule = {
  mode: 'active',
  days: weekdays,
  window: { start: { hour: 15, minute: 0 }, end: { hour: 18, minute: 0 } },
};
const notAfterSchool: RuleSchedule = { ...afterSchool, mode: 'inactive' };
const bedtime: PlainTimeWindow = { start: { hour: 21, minute: 0 }, end: { hour: 7, minute: 0 } };

const school: BrowserKeychain = {
  id: 'school',
  name: 'School',
  keys: [
    { id: 'k1', key: { type: 'anySubdomain', domain: 'khanacademy.org', scope: web } },
    { id: 'k2', key: { type: 'domain', domain: 'scratch.mit.edu', scope: web } },
    {
      id: 'k3',
      key: { type: 'domain', domain: 'homework.example', scope: web },
      expiration: '2026-12-01T16:00:00Z',
    },
    { id: 'k4', key: { type: 'path', path: 'youtube.com/watch', scope: web } },
    { id: 'k5', key: { type: 'ipAddress', ipAddress: '10.0.0.1', scope: web } },
  ],
};
const games: BrowserKeychain = {
  id: 'games',
  name: 'Games',
  schedule: afterSchool,
  keys: [{ id: 'g1', key: { type: 'domain', domain: 'coolmath.com', scope: web } }],
};
const lateGames: BrowserKeychain = { ...games, id: 'late', schedule: notAfterSchool };

const system = {
  systemHosts: ['keyward.example', ...CONNECTIVITY_CHECK_HOSTS],
  systemDomains: [...CONNECTIVITY_CHECK_DOMAINS],
};

interface Row {
  name: string;
  query: string;
  input: Partial<DnsPolicyInput>;
  at?: Date;
  expected: DnsDecision;
}

const allow = (reason: 'system' | 'suspension' | 'key'): DnsDecision => ({
  verdict: 'allow',
  reason,
});
const block = (reason: 'downtime' | 'noKey'): DnsDecision => ({ verdict: 'block', reason });

const ROWS: Row[] = [
  { name: 'no keys: deny by default', query: 'example.com', input: {}, expected: block('noKey') },
  {
    name: 'a subdomain key',
    query: 'cdn.khanacademy.org',
    input: { keychains: [school] },
    expected: allow('key'),
  },
  {
    name: 'a name no key unlocks',
    query: 'tiktok.com',
    input: { keychains: [school] },
    expected: block('noKey'),
  },
  {
    name: 'a domain key',
    query: 'www.scratch.mit.edu',
    input: { keychains: [school] },
    expected: allow('key'),
  },
  {
    name: 'a key before its expiration',
    query: 'homework.example',
    input: { keychains: [school] },
    expected: allow('key'),
  },
  {
    name: 'a key after its expiration',
    query: 'homework.example',
    input: { keychains: [school] },
    at: new Date('2026-12-01T16:00:00Z'),
    expected: block('noKey'),
  },
  {
    name: 'a path key never unlocks the name',
    query: 'youtube.com',
    input: { keychains: [school] },
    expected: block('noKey'),
  },
  {
    name: 'a scheduled keychain in its window',
    query: 'coolmath.com',
    input: { keychains: [games] },
    expected: allow('key'),
  },
  {
    name: 'a scheduled keychain before its window',
    query: 'coolmath.com',
    input: { keychains: [games] },
    at: atLocal('14:59'),
    expected: block('noKey'),
  },
  {
    name: 'a scheduled keychain at its end',
    query: 'coolmath.com',
    input: { keychains: [games] },
    at: atLocal('18:00'),
    expected: block('noKey'),
  },
  {
    name: 'a scheduled keychain on a Saturday',
    query: 'coolmath.com',
    input: { keychains: [games] },
    at: new Date('2026-12-05T16:30:00+01:00'),
    expected: block('noKey'),
  },
  {
    name: 'an inactive-mode schedule inside its window',
    query: 'coolmath.com',
    input: { keychains: [lateGames] },
    expected: block('noKey'),
  },
  {
    name: 'an inactive-mode schedule outside its window',
    query: 'coolmath.com',
    input: { keychains: [lateGames] },
    at: atLocal('19:00'),
    expected: allow('key'),
  },
  {
    name: 'downtime blocks a key',
    query: 'khanacademy.org',
    input: { keychains: [school], downtime: bedtime },
    at: atLocal('22:00'),
    expected: block('downtime'),
  },
  {
    name: 'outside downtime the key works',
    query: 'khanacademy.org',
    input: { keychains: [school], downtime: bedtime },
    expected: allow('key'),
  },
  {
    name: 'a suspension allows everything',
    query: 'tiktok.com',
    input: { keychains: [school], suspensionEndsAt: '2026-12-01T15:40:00Z' },
    expected: allow('suspension'),
  },
  {
    name: 'a suspension wins over downtime',
    query: 'tiktok.com',
    input: { downtime: bedtime, suspensionEndsAt: '2026-12-01T21:40:00Z' },
    at: atLocal('22:00'),
    expected: allow('suspension'),
  },
  {
    name: 'an ended suspension allows nothing more',
    query: 'tiktok.com',
    input: { suspensionEndsAt: '2026-12-01T15:30:00Z' },
    expected: block('noKey'),
  },
  {
    name: 'the server name always resolves',
    query: 'keyward.example',
    input: {},
    expected: allow('system'),
  },
  {
    name: 'the server name in downtime',
    query: 'KEYWARD.example.',
    input: { downtime: bedtime },
    at: atLocal('23:00'),
    expected: allow('system'),
  },
  {
    name: 'not a subdomain of the server',
    query: 'evil.keyward.example',
    input: {},
    expected: block('noKey'),
  },
  {
    name: "Android's Private DNS probe",
    query: 'a1b2c3d4-dnsotls-ds.metric.gstatic.com',
    input: {},
    expected: allow('system'),
  },
  {
    name: "Apple's captive check",
    query: 'captive.apple.com',
    input: {},
    expected: allow('system'),
  },
  { name: "Windows' NCSI", query: 'www.msftconnecttest.com', input: {}, expected: allow('system') },
  // issue 34: Pause internet
  {
    name: 'paused for a while: a keyed name is blocked like downtime',
    query: 'khanacademy.org',
    input: { keychains: [school], pausedUntilMs: Date.parse('2026-12-01T15:45:00Z') },
    expected: block('downtime'),
  },
  {
    name: 'paused until resumed: a suspension does not open it',
    query: 'khanacademy.org',
    input: {
      keychains: [school],
      suspensionEndsAt: '2026-12-01T15:40:00Z',
      pausedUntilMs: Number.POSITIVE_INFINITY,
    },
    expected: block('downtime'),
  },
  {
    name: 'a pause that has ended: the keys unlock again',
    query: 'khanacademy.org',
    input: { keychains: [school], pausedUntilMs: Date.parse('2026-12-01T15:30:00Z') },
    expected: allow('key'),
  },
  {
    name: 'paused: the system names still resolve',
    query: 'captive.apple.com',
    input: { pausedUntilMs: Number.POSITIVE_INFINITY },
    expected: allow('system'),
  },
  {
    name: 'two keychains: the unscheduled one unlocks outside the other window',
    query: 'khanacademy.org',
    input: { keychains: [games, school] },
    at: atLocal('20:00'),
    expected: allow('key'),
  },
];

describe('decideDnsName', () => {
  test.each(ROWS)('$name', ({ query, input, at, expected }) => {
    const policy = compileDnsPolicy({
      keychains: [],
      timeZoneOffsetMinutes: OFFSET,
      ...system,
      ...input,
    });
    expect(decideDnsName(policy, query, at ?? NOW)).toEqual(expected);
  });

  test('counts the keys DNS cannot apply', () => {
    const policy = compileDnsPolicy({ keychains: [school] });
    expect(policy.keysNotForDns).toBe(2);
    expect(policy.hostKeys).toBe(3);
  });
});
