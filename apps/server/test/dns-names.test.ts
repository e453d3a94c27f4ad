import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createBlockedNames, readNames } from '../src/dns/blocked-names.ts';
import { createQueryHours } from '../src/dns/query-hours.ts';
import { addChild } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 33: the names and counts Keyward DNS keeps per device (dns_blocked_names,
// dns_allowed_names, dns_query_hours), written for many devices at once, on a real database.

const HOUR = 60 * 60 * 1000;
let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server.close();
});

async function devices(count: number) {
  const parent = await server.signUpVerifiedParent();
  const childId = await addChild(server, parent.adminId, { name: 'Ada' });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const created = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'android', name: `Device ${i}` },
      { token: parent.token },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids.push((created.body as { id: string }).id);
  }
  return { parent, ids };
}

const removeDevice = (id: string) =>
  server.db.deleteFrom('computer_users').where('id', '=', id).execute();

describe('names kept per device', () => {
  test('the names of many devices are written together, each device gets its own', async () => {
    const { ids } = await devices(30);
    const names = createBlockedNames(server.db, server.app.log);
    const now = server.clock.now();
    ids.forEach((id, i) => {
      for (let n = 0; n < 40; n++) names.note(id, `name${n}.device${i}.example`, now);
    });
    await names.flush();
    for (const [i, id] of ids.entries()) {
      const kept = await readNames(server.db, 'dns_blocked_names', id, now, 'recent', 100);
      expect(kept.map((row) => row.name).sort()).toEqual(
        Array.from({ length: 40 }, (_, n) => `name${n}.device${i}.example`).sort(),
      );
    }
    await names.close();
  });

  test('a device removed before the write does not cost the others their names', async () => {
    const { ids } = await devices(5);
    const names = createBlockedNames(server.db, server.app.log, 'dns_allowed_names');
    const now = server.clock.now();
    for (const id of ids) names.note(id, 'wikipedia.org', now);
    await removeDevice(ids[2]!);
    await names.flush();
    for (const [i, id] of ids.entries()) {
      const kept = await readNames(server.db, 'dns_allowed_names', id, now, 'top', 10);
      expect(kept.map((row) => row.name)).toEqual(i === 2 ? [] : ['wikipedia.org']);
    }
    await names.close();
  });

  test('a name counts up while it is asked within 24 hours, and from 1 again after', async () => {
    const {
      ids: [id],
    } = await devices(1);
    const names = createBlockedNames(server.db, server.app.log);
    const at = new Date('2025-03-01T08:00:00.000Z');
    const count = async (now: Date) =>
      (await readNames(server.db, 'dns_blocked_names', id!, now, 'top', 10)).map((row) => [
        row.name,
        row.count,
      ]);
    names.note(id!, 'tiktok.com', at);
    names.note(id!, 'tiktok.com', at);
    await names.flush();
    expect(await count(at)).toEqual([['tiktok.com', 2]]);
    const later = new Date(at.getTime() + 23 * HOUR);
    names.note(id!, 'tiktok.com', later);
    await names.flush();
    expect(await count(later)).toEqual([['tiktok.com', 3]]);
    // asked again 25 hours after its last ask: a new count (the old row's trim may not have come)
    const nextDay = new Date(later.getTime() + 25 * HOUR);
    names.note(id!, 'tiktok.com', nextDay);
    await names.flush();
    expect(await count(nextDay)).toEqual([['tiktok.com', 1]]);
    await names.close();
  });
});

describe('query counts per device and hour', () => {
  test('many devices written together; a removed one does not cost the others their counts', async () => {
    const { ids } = await devices(12);
    const hours = createQueryHours(server.db, server.app.log);
    const at = new Date('2025-03-01T08:30:00.000Z');
    ids.forEach((id, i) => {
      for (let q = 0; q <= i; q++) hours.note(id, q % 2 === 0, at);
      hours.note(id, false, new Date(at.getTime() + HOUR));
    });
    await removeDevice(ids[5]!);
    await hours.flush();
    for (const [i, id] of ids.entries()) {
      const counted = await hours.since(id, new Date('2025-03-01T00:00:00.000Z'));
      expect(counted).toEqual(
        i === 5 ? { queries: 0, blocked: 0 } : { queries: i + 2, blocked: Math.ceil((i + 1) / 2) },
      );
    }
    // counts of the same hour add up across writes
    hours.note(ids[0]!, true, at);
    await hours.flush();
    expect(await hours.since(ids[0]!, new Date('2025-03-01T00:00:00.000Z'))).toEqual({
      queries: 3,
      blocked: 2,
    });
    await hours.close();
  });
});
