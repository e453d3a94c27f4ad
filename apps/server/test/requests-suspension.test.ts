import { describe, expect, test } from 'vitest';
import { HOUR, MINUTE } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  type ChildSettings,
  addComputerUser,
  addMacToken,
  deviceCall,
  type Parent,
  recordPushes,
  serverWithParents,
} from './fixtures.ts';

// The parent's side of filter-suspension requests (server-behaviour §3.5): GetSuspendFilterRequest
// with its extra-monitoring options, DecideFilterSuspensionRequest (2-hour expiry, 60 s minimum),
// and the decision pushed to the asking Mac.

const { server, alice, bob } = await serverWithParents();

async function newMac(parent: Parent, settings: ChildSettings = {}, childId?: string) {
  const child = childId ?? (await addChild(server, parent.adminId, { name: 'Sam', ...settings }));
  const { computerUserId } = await addComputerUser(server, parent.adminId, child);
  const token = await addMacToken(server, child, computerUserId);
  return { childId: child, computerUserId, token };
}

async function askSuspension(token: string, duration = 600, comment?: string): Promise<string> {
  const result = await deviceCall(server, 'CreateSuspendFilterRequest_v2', token, {
    duration,
    ...(comment ? { comment } : {}),
  });
  if (result.status !== 200) throw new Error(JSON.stringify(result.body));
  return result.body;
}

const dashboard = (parent: Parent, op: string, input?: unknown) =>
  server.call(op, input, { token: parent.token });

const decide = (parent: Parent, id: string, decision: object, responseComment?: string) =>
  dashboard(parent, 'DecideFilterSuspensionRequest', {
    id,
    decision,
    ...(responseComment === undefined ? {} : { responseComment }),
  });

function requestRow(id: string) {
  return server.db
    .selectFrom('mac_suspend_filter_requests')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

function withoutRequestId(body: Record<string, unknown>) {
  const { requestId: _requestId, ...rest } = body;
  return rest;
}

describe('GetSuspendFilterRequest', () => {
  test('the request with the extra monitoring offered for this child', async () => {
    const mac = await newMac(alice, {
      name: 'Kim',
      screenshotsEnabled: true,
      screenshotsFrequency: 90,
    });
    const id = await askSuspension(mac.token, 900, 'installing Minecraft mods');
    const result = await dashboard(alice, 'GetSuspendFilterRequest', id);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id,
      deviceId: mac.computerUserId,
      status: 'pending',
      userName: 'Kim',
      requestedDurationInSeconds: 900,
      requestComment: 'installing Minecraft mods',
      extraMonitoringOptions: {
        k: 'keylogging',
        '@60': '1.5x screenshots',
        '@45': '2x screenshots',
        '@30': '3x screenshots',
        '@60+k': '1.5x screenshots + keylogging',
        '@45+k': '2x screenshots + keylogging',
        '@30+k': '3x screenshots + keylogging',
      },
      createdAt: server.clock.now().toISOString(),
    });
  });

  test('a child with everything on at 10 s is offered nothing', async () => {
    const mac = await newMac(alice, {
      keyloggingEnabled: true,
      screenshotsEnabled: true,
      screenshotsFrequency: 10,
    });
    const id = await askSuspension(mac.token);
    expect(
      (await dashboard(alice, 'GetSuspendFilterRequest', id)).body.extraMonitoringOptions,
    ).toEqual({});
  });

  test("another parent's request is refused exactly like a missing one", async () => {
    const mac = await newMac(bob);
    const id = await askSuspension(mac.token);
    const foreign = await dashboard(alice, 'GetSuspendFilterRequest', id);
    const missing = await dashboard(alice, 'GetSuspendFilterRequest', newToken());
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(missing.body));
    expect(foreign.body).toMatchObject({ id: '6ac1205a', entityName: 'SuspendFilterRequest' });
  });
});

describe('DecideFilterSuspensionRequest', () => {
  test('granting stores the duration and extra monitoring and pushes them to that Mac only', async () => {
    const mac = await newMac(alice);
    const sibling = await newMac(alice, {}, mac.childId);
    const id = await askSuspension(mac.token, 600);
    const pushes = recordPushes(server, [mac.computerUserId, sibling.computerUserId]);

    const result = await decide(
      alice,
      id,
      { case: 'accepted', durationInSeconds: 1200, extraMonitoring: '@30+k' },
      ' be good ',
    );
    pushes.stop();
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    expect(pushes.received).toEqual([
      { computerUserId: mac.computerUserId, case: 'filterSuspensionRequestDecided_v2' },
    ]);
    expect(pushes.to(mac.computerUserId)).toEqual([
      {
        case: 'filterSuspensionRequestDecided_v2',
        id,
        decision: {
          accepted: {
            duration: 1200,
            extraMonitoring: { addKeyloggingAndSetScreenshotFreq: { _0: 30 } },
          },
        },
        comment: 'be good',
      },
    ]);
    expect(await requestRow(id)).toMatchObject({
      status: 'accepted',
      duration: 1200,
      extra_monitoring: '@30+k',
      response_comment: 'be good',
    });
    const read = (await dashboard(alice, 'GetSuspendFilterRequest', id)).body;
    // issue 32: what the child asked (600) stays visible beside what was granted (1200)
    expect(read).toMatchObject({
      status: 'accepted',
      requestedDurationInSeconds: 600,
      grantedDurationInSeconds: 1200,
      responseComment: 'be good',
    });
    expect(await requestRow(id)).toMatchObject({ requested_duration: 600 });
  });

  test('granting exactly 60 s without extra monitoring', async () => {
    const mac = await newMac(alice);
    const id = await askSuspension(mac.token, 300);
    const pushes = recordPushes(server, [mac.computerUserId]);
    expect((await decide(alice, id, { case: 'accepted', durationInSeconds: 60 })).status).toBe(200);
    pushes.stop();
    expect(pushes.to(mac.computerUserId)).toEqual([
      {
        case: 'filterSuspensionRequestDecided_v2',
        id,
        decision: { accepted: { duration: 60 } },
      },
    ]);
    expect(await requestRow(id)).toMatchObject({ duration: 60, extra_monitoring: null });
  });

  test('denying keeps the asked duration and pushes the comment', async () => {
    const mac = await newMac(alice);
    const id = await askSuspension(mac.token, 300);
    const pushes = recordPushes(server, [mac.computerUserId]);
    expect((await decide(alice, id, { case: 'rejected' }, 'not now')).status).toBe(200);
    pushes.stop();
    expect(pushes.to(mac.computerUserId)).toEqual([
      {
        case: 'filterSuspensionRequestDecided_v2',
        id,
        decision: { rejected: {} },
        comment: 'not now',
      },
    ]);
    expect(await requestRow(id)).toMatchObject({
      status: 'rejected',
      duration: 300,
      response_comment: 'not now',
    });
  });

  test('a request already decided cannot be decided again', async () => {
    const mac = await newMac(alice);
    const id = await askSuspension(mac.token);
    await decide(alice, id, { case: 'rejected' });
    const again = await decide(alice, id, { case: 'accepted', durationInSeconds: 600 });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      type: 'badRequest',
      userMessage: 'This suspension request was already denied.',
    });
    expect((await requestRow(id)).status).toBe('rejected');
  });

  test('expires 2 hours after it was asked', async () => {
    // two Macs: a Mac's second request while one is pending is answered with the pending one
    const fresh = await askSuspension((await newMac(alice)).token);
    const stale = await askSuspension((await newMac(alice)).token);
    server.clock.advance(2 * HOUR);
    // exactly 2 hours old is still in time
    expect((await decide(alice, fresh, { case: 'rejected' })).status).toBe(200);
    server.clock.advance(1000);
    const late = await decide(alice, stale, { case: 'accepted', durationInSeconds: 600 });
    expect(late.status).toBe(400);
    expect(late.body.userMessage).toBe(
      'This suspension request has expired: it is more than 2 hours old. Your child can send a new one.',
    );
    expect((await requestRow(stale)).status).toBe('pending');
    server.clock.advance(-(2 * HOUR + 1000));
  });

  test.each<[string, object, string]>([
    [
      '59 s',
      { case: 'accepted', durationInSeconds: 59 },
      'A suspension must last at least 1 minute.',
    ],
    [
      '0 s',
      { case: 'accepted', durationInSeconds: 0 },
      'A suspension must last at least 1 minute.',
    ],
    [
      'a fraction of a second',
      { case: 'accepted', durationInSeconds: 90.5 },
      'The suspension must last a whole number of seconds.',
    ],
    [
      'more than 7 days',
      { case: 'accepted', durationInSeconds: 8 * 24 * 3600 },
      'A suspension can last at most 7 days.',
    ],
    [
      'an option not offered for this child',
      { case: 'accepted', durationInSeconds: 600, extraMonitoring: '@5' },
      "That extra monitoring option isn't available for this child any more. Reload the page and choose again.",
    ],
    [
      'keylogging for a child who already has it',
      { case: 'accepted', durationInSeconds: 600, extraMonitoring: 'k' },
      "That extra monitoring option isn't available for this child any more. Reload the page and choose again.",
    ],
  ])('refuses a grant of %s with a 400 and changes nothing', async (_name, decision, message) => {
    const mac = await newMac(alice, { keyloggingEnabled: true });
    const id = await askSuspension(mac.token);
    const pushes = recordPushes(server, [mac.computerUserId]);
    const result = await decide(alice, id, decision);
    pushes.stop();
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ type: 'badRequest', userMessage: message });
    expect(await requestRow(id)).toMatchObject({
      status: 'pending',
      duration: 600,
      extra_monitoring: null,
    });
    expect(pushes.received).toEqual([]);
  });

  test.each<[string, object]>([
    ['an unknown decision', { decision: { case: 'maybe' } }],
    ['a grant without a duration', { decision: { case: 'accepted' } }],
    ['an over-long comment', { decision: { case: 'rejected' }, responseComment: 'a'.repeat(2001) }],
  ])('refuses %s with a contract 400', async (_name, input) => {
    const mac = await newMac(alice);
    const id = await askSuspension(mac.token);
    const result = await dashboard(alice, 'DecideFilterSuspensionRequest', { id, ...input });
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toEqual(expect.any(String));
  });

  test("another parent's request is refused like a missing one, untouched and not pushed", async () => {
    const mac = await newMac(bob);
    const id = await askSuspension(mac.token);
    const pushes = recordPushes(server, [mac.computerUserId]);
    const foreign = await decide(alice, id, { case: 'accepted', durationInSeconds: 600 });
    const missing = await decide(alice, newToken(), { case: 'accepted', durationInSeconds: 600 });
    pushes.stop();
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(missing.body));
    expect(pushes.received).toEqual([]);
    expect((await requestRow(id)).status).toBe('pending');
  });

  test('the Mac reads the grant at check-in when it missed the push', async () => {
    const mac = await newMac(alice);
    const id = await askSuspension(mac.token);
    server.clock.advance(5 * MINUTE);
    await decide(alice, id, { case: 'accepted', durationInSeconds: 900, extraMonitoring: '@60' });
    const checkIn = await deviceCall(server, 'CheckIn_v2', mac.token, {
      appVersion: '2.4.0',
      pendingFilterSuspension: id,
    });
    expect(checkIn.body.resolvedFilterSuspension).toEqual({
      id,
      decision: { accepted: { duration: 900, extraMonitoring: { setScreenshotFreq: { _0: 60 } } } },
    });
  });
});
