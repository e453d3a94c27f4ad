import { describe, expect, test } from 'vitest';
import {
  connectedMac,
  deviceCall,
  inviteCoParent,
  recordPushes,
  serverWithParents,
} from './fixtures.ts';
import type { CallResult } from './harness.ts';

// Issue 19, finding 8: one rule for unlock and suspension requests: the first decision stands, and
// any later or parallel one answers the contract's error with words the parent understands,
// writes nothing (no second audit entry) and sends nothing to the Mac. SQLite and PostgreSQL.

const { server, alice } = await serverWithParents();
const dana = await inviteCoParent(server, alice);
const PARALLEL = 50;

function tally(results: CallResult[]) {
  return results.reduce<Record<number, number>>((counts, r) => {
    counts[r.status] = (counts[r.status] ?? 0) + 1;
    return counts;
  }, {});
}

async function auditEntriesOf(entityId: string) {
  return server.db
    .selectFrom('audit_log')
    .select(['operation', 'person_id'])
    .where('entity_id', '=', entityId)
    .execute();
}

describe('unlock requests take one decision', () => {
  test(`${PARALLEL} parallel accepts and denies by two parents: one stored, audited and pushed`, async () => {
    const mac = await connectedMac(server, alice.adminId);
    const asked = await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'khanacademy.org' }],
    });
    const [id] = asked.body as [string];
    const pushes = recordPushes(server, [mac.computerUserId]);
    const inputs = Array.from({ length: PARALLEL }, (_, i) => ({
      id,
      status: i % 2 === 0 ? 'accepted' : 'rejected',
      responseComment: `decision ${i}`,
    }));
    const results = await Promise.all(
      inputs.map((input, i) =>
        server.call('UpdateUnlockRequest', input, {
          token: i % 3 === 0 ? dana.token : alice.token,
        }),
      ),
    );
    pushes.stop();

    expect(tally(results)).toEqual({ 200: 1, 400: PARALLEL - 1 });
    const winner = inputs[results.findIndex((r) => r.status === 200)]!;
    const row = await server.db
      .selectFrom('unlock_requests')
      .select(['status', 'response_comment'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: winner.status, response_comment: winner.responseComment });
    const words = winner.status === 'accepted' ? 'accepted' : 'denied';
    for (const refused of results.filter((r) => r.status === 400)) {
      expect(refused.body).toMatchObject({
        id: 'e5b1c7a4',
        type: 'badRequest',
        dashboardTag: 'requestAlreadyDecided',
        userMessage: `This unlock request was already ${words}.`,
      });
    }
    expect(await auditEntriesOf(id)).toHaveLength(1);
    expect(pushes.to(mac.computerUserId)).toEqual([
      expect.objectContaining({ case: 'unlockRequestUpdated_v2', id, status: winner.status }),
    ]);

    // later, the same answer; the decision does not change
    const later = await server.call(
      'UpdateUnlockRequest',
      { id, status: winner.status === 'accepted' ? 'rejected' : 'accepted' },
      { token: alice.token },
    );
    expect(later.status).toBe(400);
    expect(later.body.userMessage).toBe(`This unlock request was already ${words}.`);
    expect(await auditEntriesOf(id)).toHaveLength(1);
  });
});

describe('suspension requests take one decision (the same rule)', () => {
  test(`${PARALLEL} parallel grants and denials by two parents: one stored, audited and pushed`, async () => {
    const mac = await connectedMac(server, alice.adminId);
    const asked = await deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, {
      duration: 600,
      comment: 'homework video',
    });
    expect(asked.status).toBe(200);
    const id = asked.body as string;
    const pushes = recordPushes(server, [mac.computerUserId]);
    const inputs = Array.from({ length: PARALLEL }, (_, i) => ({
      id,
      decision:
        i % 2 === 0
          ? { case: 'accepted' as const, durationInSeconds: 600 + i }
          : { case: 'rejected' as const },
    }));
    const results = await Promise.all(
      inputs.map((input, i) =>
        server.call('DecideFilterSuspensionRequest', input, {
          token: i % 3 === 0 ? dana.token : alice.token,
        }),
      ),
    );
    pushes.stop();

    expect(tally(results)).toEqual({ 200: 1, 400: PARALLEL - 1 });
    const winner = inputs[results.findIndex((r) => r.status === 200)]!;
    const row = await server.db
      .selectFrom('mac_suspend_filter_requests')
      .select(['status', 'duration'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe(winner.decision.case);
    if (winner.decision.case === 'accepted') {
      expect(row.duration).toBe(winner.decision.durationInSeconds);
    }
    const words = winner.decision.case === 'accepted' ? 'granted' : 'denied';
    for (const refused of results.filter((r) => r.status === 400)) {
      expect(refused.body).toMatchObject({
        id: '3c9e5a71',
        dashboardTag: 'requestAlreadyDecided',
        userMessage: `This suspension request was already ${words}.`,
      });
    }
    expect(await auditEntriesOf(id)).toHaveLength(1);
    expect(pushes.received).toEqual([
      { computerUserId: mac.computerUserId, case: 'filterSuspensionRequestDecided_v2' },
    ]);
  });
});
