import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { loadState } from '../src/state.ts';
import { dashboardAs, SimulatedMac, waitFor, useListeningServer } from './helpers.ts';

// unlock, suspend, requests and online's decision lines against the REAL server, with the parent's
// side played through the dashboard operations.

const live = useListeningServer();
const dashboard = (op: string, input?: unknown) => dashboardAs(live, op, input);

let mac: SimulatedMac;
let childId: string;

beforeEach(async () => {
  mac = new SimulatedMac(live.serverUrl);
  childId = randomUUID();
  await dashboard('SaveUser', {
    id: childId,
    isNew: true,
    name: 'Ana',
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 120,
    showSuspensionActivity: false,
    keychains: [],
  });
  const { code } = await dashboard('CreatePendingAppConnection', { userId: childId });
  expect(await mac.run(['connect', String(code)])).toBe(0);
});
afterEach(() => mac.cleanUp());

describe('unlock', () => {
  test('sends several targets in one batch with the app and comment; the parent sees them', async () => {
    const { code, printed } = await mac.capture([
      'unlock',
      'khanacademy.org',
      'https://scratch.mit.edu/projects',
      '10.0.0.7',
      '--app',
      'org.mozilla.firefox',
      '--comment',
      'for my project',
    ]);
    expect(code).toBe(0);
    expect(printed).toContain('asked to unlock khanacademy.org (request ');
    expect(printed).toContain('asked to unlock https://scratch.mit.edu/projects (request ');

    const requests = (await dashboard('GetUserUnlockRequests', childId)) as Record<
      string,
      unknown
    >[];
    expect(requests).toHaveLength(3);
    expect(requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ domain: 'khanacademy.org', appBundleId: 'org.mozilla.firefox' }),
        expect.objectContaining({
          url: 'https://scratch.mit.edu/projects',
          domain: 'scratch.mit.edu',
          requestComment: 'for my project',
        }),
        expect.objectContaining({ ipAddress: '10.0.0.7', status: 'pending' }),
      ]),
    );
    const state = await loadState(mac.stateFile);
    expect(state?.requests?.unlock.map((request) => request.id).sort()).toEqual(
      requests.map((request) => request.id).sort(),
    );
  });

  test('without a target it is a usage error and nothing is sent', async () => {
    const { code, printed } = await mac.capture(['unlock', '--comment', 'please']);
    expect(code).toBe(1);
    expect(printed).toContain('unlock needs at least one url, host name or IP address');
    expect(await dashboard('GetUserUnlockRequests', childId)).toEqual([]);
  });
});

describe('online prints decisions as they arrive', () => {
  test('unlock accepted and rejected, suspension granted with extra monitoring', async () => {
    await mac.run(['unlock', 'khanacademy.org']);
    await mac.run(['unlock', 'games.example.com']);
    await mac.run(['suspend', '10', '--comment', 'installing a font']);
    const state = await loadState(mac.stateFile);
    const [khan, games] = state!.requests!.unlock;
    const suspension = state!.requests!.suspension[0]!;

    const stop = new AbortController();
    const exited = mac.run(['online', '--heartbeat-seconds', '1'], stop.signal);
    await waitFor('the channel', () => mac.output.includes('online: ws://'));

    await dashboard('UpdateUnlockRequest', { id: khan!.id, status: 'accepted' });
    await waitFor('the acceptance', () =>
      mac.output.includes('unlock request for khanacademy.org accepted'),
    );
    await dashboard('UpdateUnlockRequest', {
      id: games!.id,
      status: 'rejected',
      responseComment: 'not on a school night',
    });
    await waitFor('the refusal', () =>
      mac.output.includes('unlock request for games.example.com rejected: "not on a school night"'),
    );

    const asked = await dashboard('GetSuspendFilterRequest', suspension.id);
    expect(asked.extraMonitoringOptions['@60+k']).toBe('screenshots every minute + keylogging');
    await dashboard('DecideFilterSuspensionRequest', {
      id: suspension.id,
      decision: { case: 'accepted', durationInSeconds: 1200, extraMonitoring: '@60+k' },
    });
    await waitFor('the grant', () =>
      mac.output.includes(
        'suspension request accepted: 20 minutes (extra monitoring: screenshots every minute + keylogging)',
      ),
    );

    // a request sent from another terminal while online runs is kept in the state file
    expect(await mac.run(['unlock', 'wikipedia.org'])).toBe(0);

    stop.abort();
    expect(await exited).toBe(0);

    const listed = await mac.capture(['requests']);
    expect(listed.code).toBe(0);
    expect(listed.printed).toMatch(/khanacademy\.org: accepted/);
    expect(listed.printed).toMatch(/games\.example\.com: rejected: "not on a school night"/);
    expect(listed.printed).toMatch(/wikipedia\.org: pending/);
    expect(listed.printed).toMatch(
      /10 minutes: accepted: 20 minutes \(extra monitoring: screenshots every minute \+ keylogging\)/,
    );
  });
});

describe('requests', () => {
  test('learns decisions taken while the Mac was offline, through check-in', async () => {
    await mac.run(['unlock', 'khanacademy.org']);
    await mac.run(['suspend', '15']);
    const state = await loadState(mac.stateFile);
    const before = await mac.capture(['requests']);
    expect(before.printed).toMatch(/khanacademy\.org: pending/);
    expect(before.printed).toMatch(/15 minutes: pending/);

    await dashboard('UpdateUnlockRequest', {
      id: state!.requests!.unlock[0]!.id,
      status: 'rejected',
      responseComment: 'ask me tomorrow',
    });
    await dashboard('DecideFilterSuspensionRequest', {
      id: state!.requests!.suspension[0]!.id,
      decision: { case: 'rejected' },
      responseComment: 'homework first',
    });

    const after = await mac.capture(['requests']);
    expect(after.code).toBe(0);
    expect(after.printed).toMatch(/khanacademy\.org: rejected: "ask me tomorrow"/);
    expect(after.printed).toMatch(/15 minutes: rejected: "homework first"/);
  });

  test('suspend refuses a number of minutes that is not a whole number', async () => {
    const { code, printed } = await mac.capture(['suspend', 'ten']);
    expect(code).toBe(1);
    expect(printed).toContain('minutes must be a whole number');
  });

  test('a server refusal is printed with its message', async () => {
    const { code, printed } = await mac.capture(['suspend', String(8 * 24 * 60)]);
    expect(code).toBe(1);
    expect(printed).toContain('A suspension can last at most 7 days. Ask for a shorter time.');
  });
});
