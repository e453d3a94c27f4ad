import dnsPacket from 'dns-packet';
import { DNS_ESSENTIALS_KEYCHAINS } from '@keyward/domain/dns-status';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ESSENTIALS_KEYCHAINS } from '../src/db/migrations/0025_dns_devices.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { startFakeUpstream, type FakeUpstream } from './dns-fake-upstream.ts';
import {
  addChild,
  addChildWithComputer,
  addKey,
  addKeychain,
  assign,
  securityEvents,
  website,
} from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';
import { accountEmailMethod, addRule } from './notifications-fixtures.ts';

// Issue 33: a Keyward DNS device as the parent sees it (GetDnsDevice, GetFamilyDevices), the
// silence job's security event, and the essentials keychains; on SQLite and PostgreSQL.

const HOUR = 60 * 60 * 1000;
let upstream: FakeUpstream;
let server: TestServer;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  server = await createTestServer({ env: { DNS_UPSTREAM: upstream.url } });
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

async function familyWithDevice(kind: 'android' | 'ios' = 'android') {
  const parent = await server.signUpVerifiedParent();
  const childId = await addChild(server, parent.adminId, { name: 'Ada' });
  const keychainId = await addKeychain(server, parent.adminId);
  await addKey(server, keychainId, website('khanacademy.org'));
  // two keys DNS cannot enforce: a page of a site and one app
  await addKey(server, keychainId, {
    type: 'path',
    path: 'example.com/homework',
    scope: { type: 'unrestricted' },
  });
  await addKey(server, keychainId, {
    type: 'skeleton',
    scope: { type: 'bundleId', bundleId: 'us.zoom.xos' },
  });
  await assign(server, childId, keychainId);
  const created = await server.call(
    'CreateDnsDevice',
    { childId, kind, name: 'Ada’s phone' },
    { token: parent.token },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = (created.body as { id: string }).id;
  const { computer_id: computerId } = await server.db
    .selectFrom('computer_users')
    .select('computer_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { parent, childId, id, computerId };
}

async function ask(deviceId: string, name: string) {
  const response = await server.app.inject({
    method: 'POST',
    url: `/dns-query/${deviceId}`,
    headers: { 'content-type': 'application/dns-message' },
    payload: dnsPacket.encode({
      id: 0,
      type: 'query',
      flags: dnsPacket.RECURSION_DESIRED,
      questions: [{ name, type: 'A', class: 'IN' }],
    }),
  });
  expect(response.statusCode).toBe(200);
}

/** presence is written after the answer: waits until it is */
async function seen(deviceId: string) {
  const at = server.clock.now().toISOString();
  await expect
    .poll(
      async () =>
        (
          await server.db
            .selectFrom('device_presence')
            .select('last_seen_at')
            .where('computer_user_id', '=', deviceId)
            .executeTakeFirst()
        )?.last_seen_at,
      { timeout: 2_000 },
    )
    .toBe(at);
}

async function flush() {
  await server.app.dns.blockedNames.flush();
  await server.app.dns.allowedNames.flush();
  await server.app.dns.queryHours.flush();
}

describe('GetDnsDevice', () => {
  test('the status, today’s queries, the top names and the keys DNS cannot enforce', async () => {
    const { parent, id, childId, computerId } = await familyWithDevice();
    const before = await server.call('GetDnsDevice', computerId, { token: parent.token });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      id,
      computerId,
      childId,
      childName: 'Ada',
      name: 'Ada’s phone',
      kind: 'android',
      queriesToday: 0,
      blockedToday: 0,
      topAllowed: [],
      topBlocked: [],
      recentlyBlocked: [],
      keysNotForDns: 2,
      hasRemovalPassword: false,
    });
    expect(before.body.lastQueryAt).toBeUndefined();

    for (let i = 0; i < 3; i++) await ask(id, 'www.khanacademy.org');
    await ask(id, 'khanacademy.org');
    for (let i = 0; i < 2; i++) await ask(id, 'games.example');
    await ask(id, 'videos.example');
    // a browser's HTTPS-record name is blocked and counted, but not kept as a name to ask for
    await ask(id, '_443._https.videos.example');
    await flush();

    await expect
      .poll(
        async () =>
          (await server.call('GetDnsDevice', computerId, { token: parent.token })).body.lastQueryAt,
        { timeout: 2_000 },
      )
      .toBe(server.clock.now().toISOString());
    const after = await server.call('GetDnsDevice', computerId, { token: parent.token });
    expect(after.status).toBe(200);
    expect(after.body.queriesToday).toBe(8);
    expect(after.body.blockedToday).toBe(4);
    expect(after.body.topAllowed.map((n: { name: string }) => n.name)).toEqual([
      'www.khanacademy.org',
      'khanacademy.org',
    ]);
    expect(after.body.topAllowed[0].count).toBe(3);
    expect(after.body.topBlocked).toMatchObject([
      { name: 'games.example', count: 2 },
      { name: 'videos.example', count: 1 },
    ]);
    expect(after.body.recentlyBlocked.map((n: { name: string }) => n.name).sort()).toEqual([
      'games.example',
      'videos.example',
    ]);
  });

  test('a flood of queries costs one row per hour, and today starts at the family’s midnight', async () => {
    const { parent, id, computerId } = await familyWithDevice();
    await server.db
      .updateTable('parents')
      .set({ time_zone: 'America/New_York' })
      .where('id', '=', parent.adminId)
      .execute();
    // 2025-01-15T12:00Z is 07:00 in New York: a query at 04:30Z (23:30 the day before) is not today
    server.clock.set('2025-01-15T04:30:00.000Z');
    await ask(id, 'yesterday.example');
    server.clock.set('2025-01-15T12:00:00.000Z');
    for (let i = 0; i < 50; i++) await ask(id, `n${i}.example`);
    await flush();
    const rows = await server.db
      .selectFrom('dns_query_hours')
      .select(['hour', 'queries', 'blocked'])
      .where('computer_user_id', '=', id)
      .orderBy('hour')
      .execute();
    expect(rows).toEqual([
      { hour: '2025-01-15T04:00:00.000Z', queries: 1, blocked: 1 },
      { hour: '2025-01-15T12:00:00.000Z', queries: 50, blocked: 50 },
    ]);
    const result = await server.call('GetDnsDevice', computerId, { token: parent.token });
    expect(result.body.queriesToday).toBe(50);
  });

  test('another family’s device, a Mac and an unknown id are not found', async () => {
    const { id, computerId, parent } = await familyWithDevice();
    const other = await server.signUpVerifiedParent();
    expect((await server.call('GetDnsDevice', computerId, { token: other.token })).status).toBe(
      404,
    );
    // its computer-user id is not the page's id
    expect((await server.call('GetDnsDevice', id, { token: parent.token })).status).toBe(404);
    const mac = await addChildWithComputer(server, other.adminId);
    expect((await server.call('GetDnsDevice', mac.computerId, { token: other.token })).status).toBe(
      404,
    );
    expect(
      (
        await server.call('GetDnsDevice', '00000000-0000-4000-8000-000000000000', {
          token: other.token,
        })
      ).status,
    ).toBe(404);
    expect((await server.call('GetDnsDevice', 'not-an-id', { token: other.token })).status).toBe(
      400,
    );
  });
});

describe('GetFamilyDevices for a DNS device', () => {
  test('no Mac status: the last query’s time, once there is one', async () => {
    const { parent, id, childId } = await familyWithDevice();
    const device = async () => {
      const result = await server.call('GetFamilyDevices', undefined, { token: parent.token });
      expect(result.status).toBe(200);
      return (result.body as { id: string }[]).find((d) => d.id === id) as Record<string, unknown>;
    };
    const before = await device();
    expect(before).toMatchObject({ kind: 'dns', childId });
    expect(before.status).toBeUndefined();
    expect(before.lastSeenAt).toBeUndefined();
    await ask(id, 'khanacademy.org');
    // presence is written after the answer
    await expect
      .poll(async () => (await device()).lastSeenAt, { timeout: 2_000 })
      .toBe(server.clock.now().toISOString());
    expect((await device()).status).toBeUndefined();
  });
});

describe('the DNS silence job', () => {
  test('a device in use and silent for a day raises one security event, notified', async () => {
    server.clock.set('2025-02-01T10:00:00.000Z');
    const { parent, id } = await familyWithDevice();
    const quiet = await familyWithDevice(); // never asked anything: no event
    await addRule(
      server,
      parent.adminId,
      await accountEmailMethod(server, parent.adminId),
      'adminChildSecurityEvent',
    );
    await ask(id, 'khanacademy.org');
    await seen(id);

    server.clock.set('2025-02-02T09:30:00.000Z'); // 23.5 hours: not yet
    await server.app.runDnsSilence(server.clock.now());
    expect(await securityEvents(server, parent.adminId, 'dnsDeviceSilent')).toEqual([]);

    server.clock.set('2025-02-02T10:30:00.000Z');
    const mailsBefore = server.mails.length;
    await server.app.runDnsSilence(server.clock.now());
    // the same hour again (another instance): claimed once
    expect(await server.app.runDnsSilence(server.clock.now())).toBeUndefined();
    const events = await securityEvents(server, parent.adminId, 'dnsDeviceSilent');
    expect(events).toEqual([
      { event: 'dnsDeviceSilent', detail: 'Ada’s phone', ip_address: null, computer_user_id: id },
    ]);
    expect(await securityEvents(server, quiet.parent.adminId, 'dnsDeviceSilent')).toEqual([]);
    await notificationsDelivered();
    const mails = server.mails
      .slice(mailsBefore)
      .filter((mail) => mail.template === 'notify-security-event');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(parent.email);
    expect(mails[0]!.text).toContain('Keyward DNS device silent for a day: Ada’s phone');

    // still silent an hour later: no second event
    server.clock.advance(HOUR);
    await server.app.runDnsSilence(server.clock.now());
    expect(await securityEvents(server, parent.adminId, 'dnsDeviceSilent')).toHaveLength(1);

    // it asks again, then falls silent again: another event
    // (presence is written at most every 15 s per device: a day later, it is)
    await ask(id, 'khanacademy.org');
    await seen(id);
    server.clock.advance(25 * HOUR);
    await server.app.runDnsSilence(server.clock.now());
    expect(await securityEvents(server, parent.adminId, 'dnsDeviceSilent')).toHaveLength(2);
    server.clock.set('2025-01-15T12:00:00.000Z');
  });
});

describe('the essentials keychains', () => {
  test('are public keychains of the catalogue, one per system, offered per kind', async () => {
    const rows = await server.db
      .selectFrom('keychains')
      .select(['id', 'name', 'is_public'])
      .where(
        'id',
        'in',
        ESSENTIALS_KEYCHAINS.map((k) => k.id),
      )
      .orderBy('name')
      .execute();
    expect(rows.map((r) => r.name)).toEqual([
      'Android essentials',
      'Apple essentials',
      'Windows essentials',
    ]);
    // the dashboard offers them by these ids
    expect(DNS_ESSENTIALS_KEYCHAINS.android.id).toBe(
      ESSENTIALS_KEYCHAINS.find((k) => k.name === 'Android essentials')!.id,
    );
    expect(DNS_ESSENTIALS_KEYCHAINS.ios.id).toBe(
      ESSENTIALS_KEYCHAINS.find((k) => k.name === 'Apple essentials')!.id,
    );
    expect(DNS_ESSENTIALS_KEYCHAINS.macos.id).toBe(DNS_ESSENTIALS_KEYCHAINS.ios.id);
    expect(DNS_ESSENTIALS_KEYCHAINS.windows.id).toBe(
      ESSENTIALS_KEYCHAINS.find((k) => k.name === 'Windows essentials')!.id,
    );
  });

  test('Android essentials, once assigned, let a phone resolve Google’s services (not YouTube)', async () => {
    const { parent, id, childId } = await familyWithDevice();
    const selectable = await server.call('GetSelectableKeychains', undefined, {
      token: parent.token,
    });
    expect(JSON.stringify(selectable.body)).toContain('Android essentials');
    await assign(server, childId, DNS_ESSENTIALS_KEYCHAINS.android.id);
    const answer = async (name: string) => {
      const response = await server.app.inject({
        method: 'GET',
        url: `/dns-query/${id}?dns=${dnsPacket
          .encode({ id: 0, type: 'query', questions: [{ name, type: 'A', class: 'IN' }] })
          .toString('base64url')}`,
      });
      const packet = dnsPacket.decode(response.rawPayload);
      return (packet.answers?.[0] as { data?: string } | undefined)?.data;
    };
    expect(await answer('fcm.googleapis.com')).not.toBe('0.0.0.0');
    expect(await answer('play.google.com')).not.toBe('0.0.0.0');
    expect(await answer('www.youtube.com')).toBe('0.0.0.0');
  });
});
