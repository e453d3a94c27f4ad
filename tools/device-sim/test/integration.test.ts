import { randomUUID } from 'node:crypto';
import type { SaveUserInput } from '@keyward/contract/shared';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadState } from '../src/state.ts';
import { dashboardAs, SimulatedMac, waitFor, useListeningServer } from './helpers.ts';

// The CLI against the REAL server (apps/server buildApp on a temp SQLite database, listening on a
// port), set up through the dashboard operations like a parent would.

const live = useListeningServer();
const dashboard = (op: string, input?: unknown) => dashboardAs(live, op, input);

function childSettings(id: string, overrides: Partial<SaveUserInput> = {}): SaveUserInput {
  return {
    id,
    isNew: false,
    name: 'Ana',
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 60,
    showSuspensionActivity: true,
    keychains: [],
    ...overrides,
  };
}

async function addChild(name: string): Promise<string> {
  const id = randomUUID();
  await dashboard('SaveUser', childSettings(id, { isNew: true, name }));
  return id;
}

async function connectionCode(childId: string): Promise<string> {
  return String((await dashboard('CreatePendingAppConnection', { userId: childId })).code);
}

async function statusOf(childId: string, computerUserId: string) {
  const users = (await dashboard('GetUsers')) as {
    id: string;
    devices: { id: string; status: { case: string } }[];
  }[];
  return users.find((user) => user.id === childId)?.devices.find((d) => d.id === computerUserId)
    ?.status.case;
}

/** Channel frames are applied asynchronously by the server: poll the dashboard for a while. */
async function expectStatus(childId: string, computerUserId: string, expected: string) {
  let status: string | undefined;
  for (let i = 0; i < 100 && status !== expected; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    status = await statusOf(childId, computerUserId);
  }
  expect(status).toBe(expected);
}

let mac: SimulatedMac;
let childId: string;

beforeEach(async () => {
  mac = new SimulatedMac(live.serverUrl);
  childId = await addChild('Ana');
});
afterEach(() => mac.cleanUp());

async function connectMac(): Promise<string> {
  const { code, printed } = await mac.capture(['connect', await connectionCode(childId)]);
  expect(printed).toContain("is now Ana's computer");
  expect(code).toBe(0);
  return (await loadState(mac.stateFile))!.computerUserId!;
}

describe('connect', () => {
  test('then checkin shows the child and the settings', async () => {
    await dashboard(
      'SaveUser',
      childSettings(childId, {
        screenshotsEnabled: true,
        screenshotsFrequency: 120,
        downtime: { start: { hour: 21, minute: 0 }, end: { hour: 6, minute: 0 } },
      }),
    );
    await connectMac();
    const { code, printed } = await mac.capture(['checkin']);
    expect(code).toBe(0);
    expect(printed).toContain(`Child: Ana (${childId})`);
    expect(printed).toContain('Account status: active');
    expect(printed).toContain('Screenshots: on, every 120 s, 1000 px wide');
    expect(printed).toContain('Downtime: 21:00-06:00');
    expect(printed).toContain('Release channel: stable');

    const json = await mac.capture(['checkin', '--json']);
    expect(JSON.parse(json.printed).userData).toMatchObject({
      id: childId,
      screenshotsEnabled: true,
    });
  });

  test('reports the filter on right away, so the dashboard shows it on, not offline', async () => {
    const computerUserId = await connectMac();
    expect(mac.output).toContain('Reported: filter on');
    expect(await statusOf(childId, computerUserId)).toBe('filterOn');
    expect((await loadState(mac.stateFile))?.filterState).toEqual({ case: 'on' });
  });

  test('a used code fails with the server message', async () => {
    const code = await connectionCode(childId);
    expect(await mac.run(['connect', code])).toBe(0);
    const other = new SimulatedMac(live.serverUrl);
    try {
      const again = await other.capture(['connect', code]);
      expect(again.code).toBe(1);
      expect(again.printed).toContain(
        'Connection code expired, or not found. Please create a new code and try again.',
      );
    } finally {
      other.cleanUp();
    }
  });
});

describe('a connected Mac', () => {
  let computerUserId: string;
  beforeEach(async () => {
    computerUserId = await connectMac();
  });

  test('state off makes the dashboard show filterOff; disconnect makes it offline', async () => {
    expect(await mac.run(['state', 'off'])).toBe(0);
    expect(await statusOf(childId, computerUserId)).toBe('filterOff');
    expect(await mac.run(['state', 'suspended', '20'])).toBe(0);
    expect(await statusOf(childId, computerUserId)).toBe('filterSuspended');
    expect(await mac.run(['disconnect'])).toBe(0);
    expect(await statusOf(childId, computerUserId)).toBe('offline');
  });

  test('online: a SaveUser pushes userUpdated and the change is printed; stop goes offline', async () => {
    await mac.run(['state', 'on']);
    const stop = new AbortController();
    const exited = mac.run(['online', '--heartbeat-seconds', '1'], stop.signal);
    await waitFor('the channel', () => mac.output.includes('online: ws://'));
    await expectStatus(childId, computerUserId, 'filterOn');

    await dashboard('SaveUser', childSettings(childId, { screenshotsEnabled: true }));
    await waitFor('the change', () => mac.output.includes('screenshotsEnabled: false -> true'));
    expect(mac.output).toContain('push: {"userUpdated":{}}');

    stop.abort();
    expect(await exited).toBe(0);
    expect(mac.output).toContain('offline: sent goingOffline');
    await expectStatus(childId, computerUserId, 'offline');
  });

  // issue 20: like a real Mac, the channel comes back by itself after a server restart
  test('online: a server restart (close 1012) is followed by a reconnect, a catch-up check-in and pushes again', async () => {
    await mac.run(['state', 'on']);
    const stop = new AbortController();
    const exited = mac.run(['online', '--heartbeat-seconds', '1'], stop.signal);
    await waitFor('the channel', () => mac.output.includes('online: ws://'));
    await waitFor(
      'the server to count it',
      () => live.server.app.deviceChannel.connectionCount() === 1,
    );

    // the server restarts: every Mac channel is closed with 1012, and a change lands meanwhile
    expect(live.server.app.deviceChannel.closeAll()).toBe(1);
    await dashboard('SaveUser', childSettings(childId, { keyloggingEnabled: true }));
    await waitFor('the pause', () =>
      /closed by the server \(code 1012, server restarting\); reconnecting in \d/.test(mac.output),
    );
    await waitFor('the reconnect', () => mac.output.includes('reconnected: ws://'), 15_000);
    // the check-in after reconnecting caught up on the change made while it was away
    expect(mac.output).toContain('keyloggingEnabled: false -> true');
    await expectStatus(childId, computerUserId, 'filterOn');

    // pushes arrive on the new channel
    await dashboard(
      'SaveUser',
      childSettings(childId, { screenshotsEnabled: true, keyloggingEnabled: true }),
    );
    await waitFor('the change', () => mac.output.includes('screenshotsEnabled: false -> true'));

    stop.abort();
    expect(await exited).toBe(0);
    expect(mac.output).toContain('offline: sent goingOffline');
  }, 30_000);

  test('keys lists the keys of keychains active now', async () => {
    const always = randomUUID();
    const weekdayMornings = randomUUID();
    for (const [id, name] of [
      [always, 'School'],
      [weekdayMornings, 'Homework'],
    ] as const) {
      await dashboard('SaveKeychain', { isNew: true, id, name });
    }
    await dashboard('SaveKey', {
      isNew: true,
      id: randomUUID(),
      keychainId: always,
      key: { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
    });
    await dashboard('SaveKey', {
      isNew: true,
      id: randomUUID(),
      keychainId: weekdayMornings,
      key: { type: 'domain', domain: 'wikipedia.org', scope: { type: 'unrestricted' } },
    });
    const weekdays = {
      sunday: false,
      monday: true,
      tuesday: true,
      wednesday: true,
      thursday: true,
      friday: true,
      saturday: false,
    };
    await dashboard(
      'SaveUser',
      childSettings(childId, {
        keychains: [
          { id: always },
          {
            id: weekdayMornings,
            schedule: {
              mode: 'active',
              days: weekdays,
              window: { start: { hour: 8, minute: 0 }, end: { hour: 12, minute: 0 } },
            },
          },
        ],
      }),
    );

    // Local times of this machine: a Monday morning and a Saturday morning.
    const mondayMorning = new Date(2025, 0, 13, 9, 30).toISOString();
    const saturdayMorning = new Date(2025, 0, 18, 9, 30).toISOString();
    const monday = await mac.capture(['keys', '--at', mondayMorning]);
    expect(monday.code).toBe(0);
    expect(monday.printed.trim().split('\n').sort()).toEqual([
      'khanacademy.org and its subdomains in web browsers',
      'wikipedia.org (this domain and www. only) in any app',
    ]);
    const saturday = await mac.capture(['keys', '--at', saturdayMorning]);
    expect(saturday.printed.trim().split('\n')).toEqual([
      'khanacademy.org and its subdomains in web browsers',
    ]);
  });

  test('when the parent removes the computer, online exits 2 and checkin says so', async () => {
    const exited = mac.run(['online']);
    await waitFor('the channel', () => mac.output.includes('online: ws://'));
    await dashboard('DeleteEntity_v2', { id: computerUserId, type: 'computerUser' });
    expect(await exited).toBe(2);
    expect(mac.output).toContain("This computer's connection was removed.");

    const checkin = await mac.capture(['checkin']);
    expect(checkin.code).toBe(2);
    expect(checkin.printed).toContain("This computer's connection was removed.");
  });
});
