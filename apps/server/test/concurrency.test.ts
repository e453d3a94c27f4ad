import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HOUR } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  addConnectionCode,
  addKeychain,
  connectUser,
  createKeychain,
  newChildInput,
  newMac,
  website,
} from './fixtures.ts';
import { addMethod, slackConfig } from './notifications-fixtures.ts';
import { type CallResult, createTestServer, type TestServer, uniqueEmail } from './harness.ts';

// Parallel bursts, as an attacker or a double-clicking browser sends them, against the real server
// on SQLite and on PostgreSQL. Budgets must hold exactly; a lost race is never a 500.

function statuses(results: CallResult[]) {
  const counts: Record<number, number> = {};
  for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

const fromIp = (ip: string) => ({ 'x-forwarded-for': ip });

describe('rate-limit budgets under parallel requests (scale 1)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({
      env: { RATE_LIMIT_SCALE: '1', TRUSTED_PROXIES: '127.0.0.1' },
    });
  });
  afterAll(async () => server.close());

  test('1,000 parallel wrong connection codes from one IP: exactly 10 are evaluated', async () => {
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        connectUser(server, 100000 + i, newMac(), fromIp('203.0.113.7')),
      ),
    );
    expect(statuses(results)).toEqual({ 401: 10, 429: 990 });
    expect(results.find((r) => r.status === 401)?.body.appTag).toBe('connectionCodeNotFound');
  });

  test('a right connection code does not spend the failure budget', async () => {
    server.clock.advance(HOUR);
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    for (let i = 0; i < 9; i++) {
      expect((await connectUser(server, 999999 - i, newMac(), fromIp('203.0.113.8'))).status).toBe(
        401,
      );
    }
    const code = await addConnectionCode(server, childId);
    expect((await connectUser(server, code, newMac(), fromIp('203.0.113.8'))).status).toBe(200);
    // the 10th failure is still allowed, the 11th is not
    expect((await connectUser(server, 111111, newMac(), fromIp('203.0.113.8'))).status).toBe(401);
    expect((await connectUser(server, 111112, newMac(), fromIp('203.0.113.8'))).status).toBe(429);
  });

  test('30 parallel wrong passwords for one email from one IP: exactly 10 are evaluated', async () => {
    server.clock.advance(HOUR);
    const parent = await server.signUpVerifiedParent();
    const results = await Promise.all(
      Array.from({ length: 30 }, () =>
        server.call(
          'Login',
          { email: parent.email, password: 'wrong password' },
          { headers: fromIp('198.51.100.1') },
        ),
      ),
    );
    expect(statuses(results)).toEqual({ 401: 10, 429: 20 });
  });

  test('200 parallel wrong passwords for one email from 200 IPs: exactly 10 are evaluated', async () => {
    server.clock.advance(HOUR);
    const parent = await server.signUpVerifiedParent();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        server.call(
          'Login',
          { email: parent.email, password: `guess ${i}` },
          { headers: fromIp(`198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`) },
        ),
      ),
    );
    expect(statuses(results)).toEqual({ 401: 10, 429: 190 });
  });

  test('the right password among 60 parallel guesses: at most 10 wrong ones are evaluated', async () => {
    server.clock.advance(HOUR);
    const parent = await server.signUpVerifiedParent();
    const guesses = Array.from({ length: 60 }, (_, i) => (i === 45 ? parent.password : `no ${i}`));
    const results = await Promise.all(
      guesses.map((password, i) =>
        server.call(
          'Login',
          { email: parent.email, password },
          { headers: fromIp(`192.0.2.${i + 1}`) },
        ),
      ),
    );
    const counts = statuses(results);
    expect(counts[401]).toBe(10);
    expect(counts[500]).toBeUndefined();
    // the right password is answered with a session only if it was among the evaluated attempts
    expect((counts[200] ?? 0) + counts[401]! + (counts[429] ?? 0)).toBe(60);
    expect(results[45]!.status === 200 || results[45]!.status === 429).toBe(true);
  });

  test('parallel signups, magic links and resets for one email spend exactly the budget', async () => {
    server.clock.advance(HOUR);
    const parent = await server.signUpVerifiedParent();
    server.clock.advance(HOUR);
    for (const op of ['RequestMagicLink', 'SendPasswordResetEmail'] as const) {
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          server.call(op, { email: parent.email }, { headers: fromIp(`192.0.2.${100 + i}`) }),
        ),
      );
      expect(statuses(results)).toEqual({ 200: 3, 429: 17 });
    }
    const email = uniqueEmail('burst');
    const signups = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.call(
          'Signup',
          { email, password: 'a good password' },
          { headers: fromIp(`192.0.2.${200 + i}`) },
        ),
      ),
    );
    expect(statuses(signups)).toEqual({ 200: 3, 429: 17 });
  });

  test('parallel token redemptions from one IP spend exactly the per-IP budget', async () => {
    server.clock.advance(HOUR);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.call('LoginMagicLink', { token: newToken() }, { headers: fromIp('192.0.2.250') }),
      ),
    );
    expect(statuses(results)).toEqual({ 401: 20, 429: 30 });
  });
});

describe('concurrent duplicate writes answer like the sequential path, never 500', () => {
  let server: TestServer;
  let parent: { adminId: string; token: string };
  beforeAll(async () => {
    server = await createTestServer();
    parent = await server.signUpVerifiedParent();
  });
  afterAll(async () => server.close());

  const burst = (n: number, call: () => Promise<CallResult>) =>
    Promise.all(Array.from({ length: n }, call));
  const countRows = async (
    table: 'children' | 'keychains' | 'keys' | 'notifications',
    id: string,
  ) => (await server.db.selectFrom(table).select('id').where('id', '=', id).execute()).length;
  const countEvents = async (event: string, detail: string) =>
    (
      await server.db
        .selectFrom('security_events')
        .select('id')
        .where('parent_id', '=', parent.adminId)
        .where('event', '=', event)
        .where('detail', '=', detail)
        .execute()
    ).length;

  test('20 parallel signups with one new email: all {} and one account', async () => {
    const email = uniqueEmail('twins');
    const results = await burst(20, () =>
      server.call('Signup', { email, password: 'a good password' }),
    );
    expect(statuses(results)).toEqual({ 200: 20 });
    for (const r of results) expect(r.body).toEqual({});
    const rows = await server.db
      .selectFrom('parents')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(rows).toHaveLength(1);
  });

  // issue 20: a double-clicked or retried create carries the first one's client id; every copy is
  // answered as done and there is one row.
  test('20 parallel SaveKeychain isNew with one id: all done, one keychain', async () => {
    const id = newToken();
    const results = await burst(20, () =>
      server.call(
        'SaveKeychain',
        { isNew: true, id, name: 'Race', description: null },
        { token: parent.token },
      ),
    );
    expect(statuses(results)).toEqual({ 200: 20 });
    expect(await countRows('keychains', id)).toBe(1);
    expect(await countEvents('keychainCreated', 'name: Race')).toBe(1);
  });

  test('20 parallel SaveKey isNew with one id: all done, one key', async () => {
    const keychainId = await createKeychain(server, parent);
    const id = newToken();
    const results = await burst(20, () =>
      server.call(
        'SaveKey',
        { isNew: true, id, keychainId, key: website('example.com') },
        { token: parent.token },
      ),
    );
    expect(statuses(results)).toEqual({ 200: 20 });
    expect(await countRows('keys', id)).toBe(1);
  });

  test('20 parallel SaveUser isNew with one id: all done, one child', async () => {
    const input = newChildInput({ name: 'Twin' });
    const results = await burst(20, () => server.call('SaveUser', input, { token: parent.token }));
    expect(statuses(results)).toEqual({ 200: 20 });
    expect(await countRows('children', input.id)).toBe(1);
    const children = await server.db
      .selectFrom('children')
      .select('id')
      .where('parent_id', '=', parent.adminId)
      .where('name', '=', 'Twin')
      .execute();
    expect(children).toHaveLength(1);
    expect(await countEvents('childAdded', 'name: Twin')).toBe(1);
  });

  test('20 parallel SaveNotification isNew with one id: all done, one rule', async () => {
    const methodId = await addMethod(server, parent.adminId, slackConfig());
    const id = newToken();
    const results = await burst(20, () =>
      server.call(
        'SaveNotification',
        { isNew: true, id, methodId, trigger: 'unlockRequestSubmitted' },
        { token: parent.token },
      ),
    );
    expect(statuses(results)).toEqual({ 200: 20 });
    expect(await countRows('notifications', id)).toBe(1);
  });

  test("an isNew save with another parent's id is still refused, that row untouched", async () => {
    const other = await server.signUpVerifiedParent();
    const input = newChildInput({ name: 'Theirs' });
    expect((await server.call('SaveUser', input, { token: other.token })).status).toBe(200);
    const results = await burst(5, () =>
      server.call('SaveUser', { ...input, name: 'Mine' }, { token: parent.token }),
    );
    expect(statuses(results)).toEqual({ 400: 5 });
    const row = await server.db
      .selectFrom('children')
      .select(['name', 'parent_id'])
      .where('id', '=', input.id)
      .executeTakeFirst();
    expect(row).toEqual({ name: 'Theirs', parent_id: other.adminId });
  });

  test('20 parallel toggles of one child and keychain: each applied in turn, no 500', async () => {
    const childId = await addChild(server, parent.adminId);
    const keychainId = await addKeychain(server, parent.adminId);
    const results = await burst(20, () =>
      server.call('ToggleChildKeychain', { childId, keychainId }, { token: parent.token }),
    );
    expect(statuses(results)).toEqual({ 200: 20 });
    // an even number of toggles, each seeing the one before it, leaves the pair unassigned
    const rows = await server.db
      .selectFrom('child_keychains')
      .select('id')
      .where('child_id', '=', childId)
      .execute();
    expect(rows).toHaveLength(0);
  });

  test('20 Macs with one serial number connecting at once: one computer, no 500', async () => {
    const childId = await addChild(server, parent.adminId);
    const serialNumber = newMac().serialNumber;
    const codes = await Promise.all(
      Array.from({ length: 20 }, () => addConnectionCode(server, childId)),
    );
    const results = await Promise.all(
      codes.map((code, i) =>
        connectUser(server, code, newMac({ serialNumber, numericId: 501 + i })),
      ),
    );
    expect(statuses(results)).toEqual({ 200: 20 });
    const computers = await server.db
      .selectFrom('computers')
      .select('id')
      .where('serial_number', '=', serialNumber)
      .execute();
    expect(computers).toHaveLength(1);
  });

  test('keys saved while their keychain is deleted: 200 or the not-found answer, no 500', async () => {
    const keychainId = await createKeychain(server, parent);
    const saves = Array.from({ length: 20 }, () =>
      server.call(
        'SaveKey',
        { isNew: true, id: newToken(), keychainId, key: website('example.org') },
        { token: parent.token },
      ),
    );
    const deletion = server.call(
      'DeleteEntity_v2',
      { id: keychainId, type: 'keychain' },
      { token: parent.token },
    );
    const results = await Promise.all([...saves.slice(0, 10), deletion, ...saves.slice(10)]);
    expect((await deletion).status).toBe(200);
    const counts = statuses(results);
    expect(counts[500]).toBeUndefined();
    expect((counts[200] ?? 0) + (counts[404] ?? 0)).toBe(21);
    for (const r of results.filter((r) => r.status === 404)) {
      expect(r.body).toMatchObject({ type: 'notFound' });
    }
    const orphans = await server.db
      .selectFrom('keys')
      .select('id')
      .where('keychain_id', '=', keychainId)
      .execute();
    expect(orphans).toHaveLength(0);
  });

  test('children saved with a keychain that is being deleted: 200 or not found, no 500', async () => {
    const results: Promise<CallResult>[] = [];
    const keychains: string[] = [];
    for (let round = 0; round < 10; round++) {
      const keychainId = await createKeychain(server, parent);
      keychains.push(keychainId);
      for (let i = 0; i < 3; i++) {
        results.push(
          server.call(
            'SaveUser',
            newChildInput({ keychains: [{ id: keychainId, schedule: null }] }),
            { token: parent.token },
          ),
        );
      }
      results.push(
        server.call(
          'DeleteEntity_v2',
          { id: keychainId, type: 'keychain' },
          { token: parent.token },
        ),
      );
    }
    const counts = statuses(await Promise.all(results));
    expect(counts[500]).toBeUndefined();
    expect((counts[200] ?? 0) + (counts[404] ?? 0)).toBe(40);
    const left = await server.db
      .selectFrom('child_keychains')
      .select('id')
      .where('keychain_id', 'in', keychains)
      .execute();
    expect(left).toHaveLength(0);
  });
});
