import { describe, expect, test } from 'vitest';
import { HOUR, MINUTE } from '../src/db/values.ts';
import { connectUser, createChild, newMac, serverWithParents, type Parent } from './fixtures.ts';
import { createTestServer } from './harness.ts';

const { server, alice, bob } = await serverWithParents();

function createCode(parent: Parent, childId: string) {
  return server.call('CreatePendingAppConnection', { userId: childId }, { token: parent.token });
}

describe('CreatePendingAppConnection', () => {
  test('a 6-digit code, stored only as its HMAC, valid for an hour (issue 19)', async () => {
    const childId = await createChild(server, alice);
    const result = await createCode(alice, childId);
    expect(result.status).toBe(200);
    const { code } = result.body;
    expect(Number.isInteger(code)).toBe(true);
    expect(code).toBeGreaterThanOrEqual(100_000);
    expect(code).toBeLessThanOrEqual(999_999);

    const rows = await server.db
      .selectFrom('connection_codes')
      .selectAll()
      .where('child_id', '=', childId)
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.expires_at).toBe(new Date(server.clock.now().getTime() + HOUR).toISOString());
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(String(code));
  });

  test('codes differ from one another', async () => {
    const childId = await createChild(server, alice);
    const codes = new Set<number>();
    for (let i = 0; i < 8; i++) codes.add((await createCode(alice, childId)).body.code);
    expect(codes.size).toBe(8);
  });

  test('the code connects a Mac once, and not after it has expired', async () => {
    const childId = await createChild(server, alice, { name: 'Sam' });
    const { code } = (await createCode(alice, childId)).body;
    const connected = await connectUser(server, code, newMac());
    expect(connected.status).toBe(200);
    expect(connected.body.id).toBe(childId);
    const reused = await connectUser(server, code, newMac());
    expect(reused.status).toBe(401);

    // issue 19: 59 minutes later a code still connects, an hour later it does not. (A moment later
    // than the codes of the tests above: a family keeps its 10 newest codes, and codes made in the
    // same instant have no order among them.)
    server.clock.advance(1000);
    const inTime = (await createCode(alice, childId)).body.code;
    const late = (await createCode(alice, childId)).body.code;
    server.clock.advance(59 * MINUTE);
    const inTimeResult = await connectUser(server, inTime, newMac());
    expect(inTimeResult.status, JSON.stringify(inTimeResult.body)).toBe(200);
    server.clock.advance(MINUTE);
    const expired = await connectUser(server, late, newMac());
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({
      id: '6e7fc234',
      appTag: 'connectionCodeNotFound',
      userMessage: 'Connection code expired, or not found. Please create a new code and try again.',
    });
  });

  test('a family keeps its 10 newest codes: an 11th revokes the oldest (issue 19)', async () => {
    const childId = await createChild(server, alice);
    const otherChild = await createChild(server, alice);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      server.clock.advance(1000);
      codes.push((await createCode(alice, i % 2 === 0 ? childId : otherChild)).body.code);
    }
    const oldest = await connectUser(server, codes[0]!, newMac());
    expect(oldest.status).toBe(401);
    for (const code of codes.slice(1)) {
      expect((await connectUser(server, code, newMac())).status).toBe(200);
    }
  });

  test('at most 20 codes per parent per hour', async () => {
    const limited = await createTestServer({ env: { RATE_LIMIT_SCALE: '1' } });
    try {
      const parent = await limited.signUpVerifiedParent();
      const childId = await createChild(limited, parent);
      for (let i = 0; i < 20; i++) {
        const ok = await limited.call(
          'CreatePendingAppConnection',
          { userId: childId },
          { token: parent.token },
        );
        expect(ok.status).toBe(200);
      }
      const refused = await limited.call(
        'CreatePendingAppConnection',
        { userId: childId },
        { token: parent.token },
      );
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });

  test('codes of all families outstanding at once are bounded: then 429 until one expires (issue 19)', async () => {
    const crowded = await createTestServer();
    try {
      const parent = await crowded.signUpVerifiedParent();
      const childId = await createChild(crowded, parent);
      const now = crowded.clock.now();
      // 999 codes of other families, the first expiring in 10 minutes
      const otherChild = await createChild(crowded, await crowded.signUpVerifiedParent());
      await crowded.db
        .insertInto('connection_codes')
        .values(
          Array.from({ length: 999 }, (_, i) => ({
            id: crypto.randomUUID(),
            code_hash: `taken-${i}`,
            child_id: otherChild,
            expires_at: new Date(now.getTime() + 10 * MINUTE + i * 1000).toISOString(),
            created_at: now.toISOString(),
          })),
        )
        .execute();
      const create = () =>
        crowded.call('CreatePendingAppConnection', { userId: childId }, { token: parent.token });
      expect((await create()).status).toBe(200);
      const refused = await create();
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(10 * 60));
      crowded.clock.advance(10 * MINUTE);
      expect((await create()).status).toBe(200);
    } finally {
      await crowded.close();
    }
  });

  test("another parent's child is notFound and no code is created", async () => {
    const childId = await createChild(server, alice);
    const result = await createCode(bob, childId);
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ type: 'notFound', entityName: 'Child' });
    const rows = await server.db
      .selectFrom('connection_codes')
      .select('id')
      .where('child_id', '=', childId)
      .execute();
    expect(rows).toEqual([]);
  });
});
