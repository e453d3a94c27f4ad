import { SecurityEvent } from '@keyward/contract/shared';
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { addMs, DAY, MINUTE, toDbTime } from '../src/db/values.ts';
import { isPublicIp, lookUpIpLocation } from '../src/services/ip-location.ts';
import { newToken } from '../src/services/tokens.ts';
import { addChild, addComputerUser, addMacToken, deviceCall } from './fixtures.ts';
import { createTestServer } from './harness.ts';

// server-behaviour §3.9 SecurityEventsFeed (14 days, newest first, fixed wording, child and admin
// cases, IP location from the offline DB-IP database) and §3.10 LogEvent. The direct peer of
// app.inject() is 127.0.0.1, trusted here so that X-Forwarded-For carries the public client IPs.

const server = await createTestServer({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
afterAll(() => server.close());
const alice = await server.signUpVerifiedParent();
const bob = await server.signUpVerifiedParent();

async function feed(token: string) {
  const result = await server.call('SecurityEventsFeed', undefined, { token });
  expect(result.status).toBe(200);
  return z.array(SecurityEvent).parse(result.body);
}

function loginFrom(ip: string | undefined, password: string) {
  return server.call(
    'Login',
    { email: alice.email, password },
    ip ? { headers: { 'x-forwarded-for': ip } } : {},
  );
}

describe('IP location', () => {
  test.each([
    ['8.8.8.8', { city: 'Mountain View', region: 'California', countryCode: 'US' }],
    ['81.2.69.160', { city: 'London', region: 'England', countryCode: 'GB' }],
    ['::ffff:8.8.8.8', { city: 'Mountain View', region: 'California', countryCode: 'US' }],
  ])('%s → %j', async (ip, expected) => {
    expect(await lookUpIpLocation(ip)).toEqual(expected);
  });

  test('a public IPv6 address has a country', async () => {
    expect((await lookUpIpLocation('2001:4860:4860::8888'))?.countryCode).toMatch(/^[A-Z]{2}$/);
  });

  test.each([
    '127.0.0.1',
    '::1',
    '10.1.2.3',
    '192.168.1.20',
    '172.20.0.1',
    '100.64.0.1',
    '169.254.1.1',
    'fd00::1',
    'fe80::1',
    '0.0.0.0',
    'not-an-ip',
    '',
  ])('%j has no location', async (ip) => {
    expect(isPublicIp(ip)).toBe(false);
    expect(await lookUpIpLocation(ip)).toBeUndefined();
  });
});

describe('SecurityEventsFeed', () => {
  test('dashboard and Mac events, newest first, with wording, explanation, IP and location', async () => {
    server.clock.advance(MINUTE);
    expect((await loginFrom('8.8.8.8', 'wrong password')).status).toBe(401);
    server.clock.advance(MINUTE);
    expect((await loginFrom('81.2.69.160', alice.password)).status).toBe(200);
    server.clock.advance(MINUTE);
    expect((await loginFrom(undefined, alice.password)).status).toBe(200);

    const childId = await addChild(server, alice.adminId, { name: 'Sam' });
    const mac = await addComputerUser(server, alice.adminId, childId, {
      customName: "Sam's MacBook",
    });
    const other = await addComputerUser(server, alice.adminId, childId, { numericId: 777 });
    const token = await addMacToken(server, childId, mac.computerUserId);
    server.clock.advance(MINUTE);
    const logged = await deviceCall(server, 'LogSecurityEvent', token, {
      deviceId: mac.computerUserId,
      event: 'appQuit',
      detail: 'quit from the menu bar',
    });
    expect(logged.body).toEqual({ success: true });
    server.clock.advance(MINUTE);
    // another macOS account of the same Mac (same parent): allowed (§4.3)
    await deviceCall(server, 'LogSecurityEvent', token, {
      deviceId: other.computerUserId,
      event: 'newMacOsUserCreated',
    });
    server.clock.advance(MINUTE);
    await deviceCall(server, 'LogSecurityEvent', token, {
      deviceId: mac.computerUserId,
      event: 'somethingTheFeedDoesNotKnow',
    });

    const events = await feed(alice.token);
    expect(events.map((e) => e.event)).toEqual([
      'New macOS user created',
      'App quit',
      'Login',
      'Login',
      'Login failed',
      // VerifySignupEmail's login comes from the loopback peer
      ...events.slice(5).map((e) => e.event),
    ]);
    const [newUser, quit, loopbackLogin, londonLogin, failedLogin] = events;
    expect(quit).toEqual({
      case: 'child',
      id: expect.any(String),
      childId,
      childName: 'Sam',
      deviceId: mac.computerId,
      deviceName: "Sam's MacBook",
      event: 'App quit',
      detail: 'quit from the menu bar',
      explanation: expect.stringContaining('The filter app was quit.'),
      createdAt: expect.any(String),
    });
    expect(newUser).toMatchObject({
      case: 'child',
      deviceId: other.computerId,
      deviceName: '16" MacBook Pro (2019)',
    });
    expect(newUser).not.toHaveProperty('detail');
    expect(londonLogin).toMatchObject({
      case: 'admin',
      event: 'Login',
      detail: 'using email/password',
      ipAddress: '81.2.69.160',
      location: { city: 'London', region: 'England', countryCode: 'GB' },
    });
    expect(failedLogin).toMatchObject({
      case: 'admin',
      event: 'Login failed',
      ipAddress: '8.8.8.8',
      location: { city: 'Mountain View', region: 'California', countryCode: 'US' },
      explanation: expect.stringContaining('wrong password'),
    });
    expect(loopbackLogin).toMatchObject({ case: 'admin', ipAddress: '127.0.0.1' });
    expect(loopbackLogin).not.toHaveProperty('location');
    const times = events.map((e) => Date.parse(e.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  test('only the last 14 days, and only the own events', async () => {
    const old = newToken();
    const recent = newToken();
    for (const [id, age] of [
      [old, 14 * DAY + MINUTE],
      [recent, 14 * DAY - MINUTE],
    ] as const) {
      await server.db
        .insertInto('security_events')
        .values({
          id,
          parent_id: alice.adminId,
          computer_user_id: null,
          event: 'childAdded',
          detail: 'name: Old',
          ip_address: '8.8.8.8',
          created_at: toDbTime(addMs(server.clock.now(), -age)),
        })
        .execute();
    }
    const ids = (await feed(alice.token)).map((e) => e.id);
    expect(ids).toContain(recent);
    expect(ids).not.toContain(old);
    expect(ids.at(-1)).toBe(recent);

    const bobs = await feed(bob.token);
    expect(bobs.every((e) => e.case === 'admin')).toBe(true);
    expect(bobs.map((e) => e.id)).not.toContain(recent);
  });

  test('without a session the feed is refused', async () => {
    const result = await server.call('SecurityEventsFeed');
    expect(result.status).toBe(401);
    expect(result.body.type).toBe('loggedOut');
  });
});

describe('LogEvent', () => {
  test('stores an app_events row for the parent', async () => {
    const result = await server.call(
      'LogEvent',
      { eventId: '8F3a01c2', detail: 'opened the plan card' },
      { token: alice.token },
    );
    expect(result.body).toEqual({ success: true });
    const rows = await server.db
      .selectFrom('app_events')
      .selectAll()
      .where('parent_id', '=', alice.adminId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      event_id: '8f3a01c2',
      detail: 'opened the plan card',
      kind: 'dashboard',
      computer_user_id: null,
    });
  });

  test('an over-long detail is cut to 2000 characters', async () => {
    await server.call(
      'LogEvent',
      { eventId: 'abc', detail: 'x'.repeat(5000) },
      { token: bob.token },
    );
    const row = await server.db
      .selectFrom('app_events')
      .select('detail')
      .where('parent_id', '=', bob.adminId)
      .executeTakeFirstOrThrow();
    expect(row.detail).toHaveLength(2000);
  });

  test.each([
    [{ eventId: 'not hex!', detail: 'x' }],
    [{ eventId: '', detail: 'x' }],
    [{ eventId: 'abc' }],
    [{ eventId: 12, detail: 'x' }],
  ])('bad input %j → 400 with a message for the parent', async (input) => {
    const result = await server.call('LogEvent', input, { token: alice.token });
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.userMessage).toMatch(/\w/);
  });

  test('without a session it is refused', async () => {
    const result = await server.call('LogEvent', { eventId: 'abc', detail: 'x' });
    expect(result.status).toBe(401);
  });
});
