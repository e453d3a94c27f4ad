import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_SERVER_URL,
  parseArgs,
  parseConnectionCode,
  serverUrlOf,
  stateFileOf,
  UsageError,
} from '../src/args.ts';
import { macFactsOf } from '../src/commands/connect.ts';
import { filterStateOf } from '../src/commands/state.ts';
import { DEFAULT_MAC_FACTS } from '../src/state.ts';

describe('parseArgs', () => {
  test('command, positionals and options in any order', () => {
    const parsed = parseArgs(['--state', 'a.json', 'connect', '123456', '--admin', '--serial=XYZ']);
    expect(parsed.command).toBe('connect');
    expect(parsed.args).toEqual(['123456']);
    expect(parsed.values).toEqual({ state: 'a.json', serial: 'XYZ' });
    expect([...parsed.flags]).toEqual(['admin']);
  });

  test('no command', () => {
    expect(parseArgs([]).command).toBeUndefined();
    expect(parseArgs(['-h']).flags.has('help')).toBe(true);
  });

  test.each([
    [['--nope'], 'Unknown option --nope'],
    [['checkin', '--server'], '--server needs a value'],
    [['checkin', '--server', '--json'], '--server needs a value'],
    [['checkin', '--json=yes'], '--json takes no value'],
  ])('%j is refused', (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(new UsageError(message));
  });
});

describe('parseConnectionCode', () => {
  test('six digits', () => {
    expect(parseConnectionCode('123456')).toBe(123456);
  });
  test.each([undefined, '12345', '1234567', 'abcdef', '12 456'])('%j is refused', (raw) => {
    expect(() => parseConnectionCode(raw)).toThrow(UsageError);
  });
});

describe('server and state file', () => {
  test('--server wins over the environment, which wins over the state file', () => {
    const env = { KEYWARD_SERVER: 'http://env:1' };
    expect(serverUrlOf(parseArgs(['checkin', '--server', 'http://flag:2/']), env, 'http://s')).toBe(
      'http://flag:2',
    );
    expect(serverUrlOf(parseArgs(['checkin']), env, 'http://s')).toBe('http://env:1');
    expect(serverUrlOf(parseArgs(['checkin']), {}, 'http://s:3')).toBe('http://s:3');
    expect(serverUrlOf(parseArgs(['checkin']), {})).toBe(DEFAULT_SERVER_URL);
  });

  test('state file: flag, then DEVICE_SIM_STATE, then the default, relative to INIT_CWD', () => {
    expect(stateFileOf(parseArgs(['checkin', '--state', '/x/a.json']), {}, '/cwd')).toBe(
      '/x/a.json',
    );
    expect(stateFileOf(parseArgs(['checkin']), { DEVICE_SIM_STATE: 'b.json' }, '/cwd')).toBe(
      path.resolve('/cwd', 'b.json'),
    );
    expect(stateFileOf(parseArgs(['checkin']), { INIT_CWD: '/repo' }, '/cwd')).toBe(
      '/repo/.device-sim/state.json',
    );
  });
});

describe('macFactsOf', () => {
  test('defaults describe a child account on a MacBook Air', () => {
    expect(macFactsOf(parseArgs(['connect', '123456']), undefined)).toEqual(DEFAULT_MAC_FACTS);
  });

  test('flags override what the Mac used before', () => {
    const previous = { ...DEFAULT_MAC_FACTS, username: 'sam', numericId: 502 };
    const facts = macFactsOf(
      parseArgs(['connect', '1', '--model', 'Mac14,2', '--app-version', '2.7.0', '--admin']),
      previous,
    );
    expect(facts).toEqual({
      ...previous,
      modelIdentifier: 'Mac14,2',
      appVersion: '2.7.0',
      isAdmin: true,
    });
    expect(macFactsOf(parseArgs(['connect', '1', '--numeric-id', '503']), previous).numericId).toBe(
      503,
    );
    expect(() => macFactsOf(parseArgs(['connect', '1', '--numeric-id', 'x']), previous)).toThrow(
      UsageError,
    );
  });
});

describe('filterStateOf', () => {
  const now = new Date('2025-03-01T10:00:00.000Z');
  test.each([
    [['on'], { case: 'on' }],
    [['off'], { case: 'off' }],
    [['suspended', '30'], { case: 'suspended', resuming: '2025-03-01T10:30:00.000Z' }],
    [['downtime', '90'], { case: 'downtime', ending: '2025-03-01T11:30:00.000Z' }],
    [['downtime-paused', '5'], { case: 'downtimePaused', resuming: '2025-03-01T10:05:00.000Z' }],
  ])('%j', (args, expected) => {
    expect(filterStateOf(args, now)).toEqual(expected);
  });

  test.each([[[]], [['paused']], [['suspended']], [['suspended', '0']], [['on', '5']]])(
    '%j is refused',
    (args) => {
      expect(() => filterStateOf(args, now)).toThrow(UsageError);
    },
  );
});
