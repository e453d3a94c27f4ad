import { describe, expect, test } from 'vitest';
import { HOUR, MINUTE } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import { addChild, addConnectionCode, type Parent, serverWithParents } from './fixtures.ts';

// Beyond the reference: the parent decides an iPad's filter-suspension requests with the same
// GetSuspendFilterRequest and DecideFilterSuspensionRequest operations as a Mac's, reached from the
// device page (GetIOSDevice lists the requests still waiting); the iPad polls the decision.

const { server, alice, bob } = await serverWithParents();

const ios = (op: string, input: unknown, token?: string) =>
  server.call(op, input, { namespace: 'ios-app', token });

const dashboard = (parent: Parent, op: string, input?: unknown) =>
  server.call(op, input, { token: parent.token });

async function connectIpad(parent: Parent, name = 'Ivy') {
  const childId = await addChild(server, parent.adminId, { name });
  const code = await addConnectionCode(server, childId);
  const result = await ios('ConnectDevice', {
    verificationCode: code,
    vendorId: newToken(),
    deviceType: 'iPad',
    appVersion: '1.5.0',
    iosVersion: '17.5',
  });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return { childId, token: result.body.token as string, deviceId: result.body.deviceId as string };
}

async function askSuspension(token: string, duration = 600, comment?: string) {
  const result = await ios('CreateSuspendFilterRequest', { duration, comment }, token);
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body as string;
}

const poll = async (token: string, id: string) =>
  (await ios('PollFilterSuspensionDecision', id, token)).body;

const withoutRequestId = ({ requestId: _r, ...rest }: Record<string, unknown>) => rest;

async function insertIosRequest(
  deviceId: string,
  status: 'pending' | 'rejected',
  duration: number,
): Promise<string> {
  const id = newToken();
  const at = server.clock.now().toISOString();
  await server.db
    .insertInto('ios_suspend_filter_requests')
    .values({
      id,
      device_id: deviceId,
      status,
      duration,
      request_comment: null,
      response_comment: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

describe('the device page lists the requests still waiting', () => {
  test('pending requests under 2 hours old, newest first, with the child id', async () => {
    const ipad = await connectIpad(alice);
    const fresh = await dashboard(alice, 'GetIOSDevice', ipad.deviceId);
    expect(fresh.body).toMatchObject({ childId: ipad.childId, pendingSuspensionRequests: [] });

    const old = await askSuspension(ipad.token, 300);
    server.clock.advance(2 * HOUR + MINUTE);
    // the pending request has expired: a new one is stored
    const first = await askSuspension(ipad.token, 600, 'school video');
    expect(first).not.toBe(old);
    server.clock.advance(MINUTE);
    // issue 19: while one is pending, the device's next request is answered with it
    expect(await askSuspension(ipad.token, 1200)).toBe(first);
    // rows stored before that rule: a second pending request, and a decided one
    const second = await insertIosRequest(ipad.deviceId, 'pending', 1200);
    await insertIosRequest(ipad.deviceId, 'rejected', 900);

    const read = await dashboard(alice, 'GetIOSDevice', ipad.deviceId);
    expect(read.status).toBe(200);
    const at = server.clock.now();
    expect(read.body.pendingSuspensionRequests).toEqual([
      { id: second, createdAt: at.toISOString(), duration: 1200 },
      {
        id: first,
        createdAt: new Date(at.getTime() - MINUTE).toISOString(),
        duration: 600,
        comment: 'school video',
      },
    ]);
    expect(read.body.pendingSuspensionRequests.map((r: { id: string }) => r.id)).not.toContain(old);
  });
});

describe('GetSuspendFilterRequest reads an iPad request', () => {
  test('the device id, the child, the duration and comment; no extra monitoring for iOS', async () => {
    const ipad = await connectIpad(alice, 'Noa');
    const id = await askSuspension(ipad.token, 900, 'drawing app');
    const result = await dashboard(alice, 'GetSuspendFilterRequest', id);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      id,
      deviceId: ipad.deviceId,
      status: 'pending',
      userName: 'Noa',
      requestedDurationInSeconds: 900,
      requestComment: 'drawing app',
      extraMonitoringOptions: {},
      createdAt: server.clock.now().toISOString(),
    });
  });
});

describe('DecideFilterSuspensionRequest decides an iPad request; the iPad polls it', () => {
  test('granted: the parent’s duration and comment reach the iPad; deciding twice is refused', async () => {
    const ipad = await connectIpad(alice);
    const id = await askSuspension(ipad.token, 600);
    expect(await poll(ipad.token, id)).toEqual({ pending: {} });

    const granted = await dashboard(alice, 'DecideFilterSuspensionRequest', {
      id,
      decision: { case: 'accepted', durationInSeconds: 1200 },
      responseComment: '  20 minutes, then bed  ',
    });
    expect(granted.body).toEqual({ success: true });
    expect(await poll(ipad.token, id)).toEqual({
      accepted: { duration: 1200, parentComment: '20 minutes, then bed' },
    });
    const read = await dashboard(alice, 'GetSuspendFilterRequest', id);
    expect(read.body).toMatchObject({
      status: 'accepted',
      responseComment: '20 minutes, then bed',
    });

    const again = await dashboard(alice, 'DecideFilterSuspensionRequest', {
      id,
      decision: { case: 'rejected' },
    });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      id: '3c9e5a71',
      userMessage: 'This suspension request was already granted.',
    });
    expect(await poll(ipad.token, id)).toMatchObject({ accepted: { duration: 1200 } });
  });

  test('denied, with and without a comment', async () => {
    const ipad = await connectIpad(alice);
    const quiet = await askSuspension(ipad.token);
    await dashboard(alice, 'DecideFilterSuspensionRequest', {
      id: quiet,
      decision: { case: 'rejected' },
    });
    const explained = await askSuspension(ipad.token);
    await dashboard(alice, 'DecideFilterSuspensionRequest', {
      id: explained,
      decision: { case: 'rejected' },
      responseComment: 'not on a school night',
    });
    expect(await poll(ipad.token, quiet)).toEqual({ denied: {} });
    expect(await poll(ipad.token, explained)).toEqual({
      denied: { parentComment: 'not on a school night' },
    });
  });

  test('extra monitoring, under a minute and over 2 hours old are refused; nothing changes', async () => {
    const ipad = await connectIpad(alice);
    const id = await askSuspension(ipad.token, 600);
    const refusals: [object, string][] = [
      [
        { case: 'accepted', durationInSeconds: 600, extraMonitoring: 'k' },
        "That extra monitoring option isn't available for this child any more. Reload the page and choose again.",
      ],
      [{ case: 'accepted', durationInSeconds: 30 }, 'A suspension must last at least 1 minute.'],
    ];
    for (const [decision, message] of refusals) {
      const result = await dashboard(alice, 'DecideFilterSuspensionRequest', { id, decision });
      expect(result.status).toBe(400);
      expect(result.body.userMessage).toBe(message);
    }
    expect(await poll(ipad.token, id)).toEqual({ pending: {} });

    server.clock.advance(2 * HOUR + MINUTE);
    const late = await dashboard(alice, 'DecideFilterSuspensionRequest', {
      id,
      decision: { case: 'accepted', durationInSeconds: 600 },
    });
    expect(late.status).toBe(400);
    expect(late.body.id).toBe('a81f4d06');
    expect(await poll(ipad.token, id)).toEqual({ pending: {} });
  });
});

describe('another parent is refused exactly like a missing id', () => {
  test('GetSuspendFilterRequest and DecideFilterSuspensionRequest; the request is untouched', async () => {
    const ipad = await connectIpad(alice);
    const id = await askSuspension(ipad.token, 600);
    const missing = newToken();

    const foreignRead = await dashboard(bob, 'GetSuspendFilterRequest', id);
    const absentRead = await dashboard(bob, 'GetSuspendFilterRequest', missing);
    expect(foreignRead.status).toBe(404);
    expect(withoutRequestId(foreignRead.body)).toEqual(withoutRequestId(absentRead.body));

    const decision = { case: 'accepted', durationInSeconds: 600 };
    const foreign = await dashboard(bob, 'DecideFilterSuspensionRequest', { id, decision });
    const absent = await dashboard(bob, 'DecideFilterSuspensionRequest', {
      id: missing,
      decision,
    });
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(absent.body));

    expect(await poll(ipad.token, id)).toEqual({ pending: {} });
    const bobsDevice = await dashboard(bob, 'GetIOSDevice', ipad.deviceId);
    expect(bobsDevice.status).toBe(404);
  });
});
