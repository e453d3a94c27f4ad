import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { claimJobRun } from '../src/jobs/claim.ts';
import { RETENTION_JOB, runDailyRetention, runRetention } from '../src/jobs/retention.ts';
import { createScreenshotStorage } from '../src/services/storage.ts';
import { hashToken, newToken } from '../src/services/tokens.ts';
import { childWithMac, insertLine, insertShot, TINY_JPEG } from './activity-helpers.ts';
import { serverWithParents } from './fixtures.ts';

// The nightly retention job (server-behaviour §7.2, §9), run on demand with an injected clock.

const { server, alice } = await serverWithParents();
const NOW = new Date('2025-03-01T02:30:00.000Z');
const ago = (days: number, hours = 0) =>
  new Date(NOW.getTime() - days * 86_400_000 - hours * 3_600_000).toISOString();
// the same local store the server uses (DATA_DIR/screenshots)
const storage = createScreenshotStorage(server.config, server.clock);
const deps = { db: server.db, storage, mode: server.config.mode };

async function exists(
  table: 'screenshots' | 'keystroke_lines' | 'unlock_requests' | 'mac_suspend_filter_requests',
  id: string,
) {
  const row = await server.db
    .selectFrom(table)
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

function storeFile(key: string, writtenAt = new Date(ago(2))) {
  const file = path.join(server.config.dataDir, 'screenshots', key);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, TINY_JPEG);
  utimesSync(file, writtenAt, writtenAt);
  return file;
}

const keyFor = (computerUserId: string, id = newToken()) =>
  `test-screenshots/${computerUserId}/1700000000--${id}.jpg`;

describe('activity retention', () => {
  test.each<[string, { created: number; reviewed?: number; flagged?: number }, boolean]>([
    ['new, unreviewed', { created: 1 }, true],
    ['20 days old, unreviewed', { created: 20 }, true],
    ['21 days old, unreviewed', { created: 21 }, false],
    ['reviewed 13 days ago', { created: 15, reviewed: 13 }, true],
    ['reviewed 14 days ago', { created: 15, reviewed: 14 }, false],
    ['30 days old, flagged 59 days ago', { created: 70, flagged: 59 }, true],
    ['reviewed long ago, flagged 10 days ago', { created: 40, reviewed: 30, flagged: 10 }, true],
    ['old and flagged 60 days ago', { created: 70, flagged: 60 }, false],
  ])('%s → kept: %s', async (_name, item, kept) => {
    const mac = await childWithMac(server, alice.adminId);
    const extra = {
      ...(item.reviewed === undefined ? {} : { deletedAt: ago(item.reviewed) }),
      ...(item.flagged === undefined ? {} : { flagged: ago(item.flagged) }),
    };
    const objectKey = keyFor(mac.computerUserId);
    const file = storeFile(objectKey);
    const shot = await insertShot(server, mac.computerUserId, ago(item.created), {
      ...extra,
      objectKey,
    });
    const line = await insertLine(
      server,
      mac.computerUserId,
      ago(item.created),
      'Notes',
      'x',
      extra,
    );

    await runRetention(deps, NOW);

    expect(await exists('screenshots', shot)).toBe(kept);
    expect(await exists('keystroke_lines', line)).toBe(kept);
    expect(existsSync(file)).toBe(kept);
  });

  test('orphaned objects go; objects with a row and recent uploads stay', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const orphan = storeFile(keyFor(mac.computerUserId));
    const justUploaded = storeFile(keyFor(mac.computerUserId), new Date(ago(0, 1)));
    const keptKey = keyFor(mac.computerUserId);
    const kept = storeFile(keptKey);
    await insertShot(server, mac.computerUserId, ago(1), { objectKey: keptKey });
    // another mode's objects are never touched
    const otherMode = storeFile(
      `development-screenshots/${mac.computerUserId}/1700000000--${newToken()}.jpg`,
    );

    const report = await runRetention(deps, NOW);

    expect(report.orphanedObjects).toBeGreaterThanOrEqual(1);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(justUploaded)).toBe(true);
    expect(existsSync(kept)).toBe(true);
    expect(existsSync(otherMode)).toBe(true);
  });

  test('objects of a deleted child are swept with it', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const key = keyFor(mac.computerUserId);
    const file = storeFile(key);
    await insertShot(server, mac.computerUserId, ago(1), { objectKey: key });
    await server.db.deleteFrom('children').where('id', '=', mac.childId).execute();
    await runRetention(deps, NOW);
    expect(existsSync(file)).toBe(false);
  });
});

describe('requests and short-lived state', () => {
  test('each rule of §7.2', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const unlock = async (
      status: 'pending' | 'accepted' | 'rejected',
      created: number,
      updated: number,
    ) => {
      const id = newToken();
      await server.db
        .insertInto('unlock_requests')
        .values({
          id,
          computer_user_id: mac.computerUserId,
          status,
          app_bundle_id: 'com.apple.Safari',
          url: 'https://example.com',
          hostname: null,
          ip_address: null,
          request_comment: null,
          response_comment: null,
          created_at: ago(created),
          updated_at: ago(updated),
        })
        .execute();
      return id;
    };
    const suspension = async (created: number) => {
      const id = newToken();
      await server.db
        .insertInto('mac_suspend_filter_requests')
        .values({
          id,
          computer_user_id: mac.computerUserId,
          status: 'accepted',
          scope: JSON.stringify({ type: 'unrestricted' }),
          duration: 300,
          request_comment: null,
          response_comment: null,
          extra_monitoring: null,
          created_at: ago(created),
          updated_at: ago(created),
        })
        .execute();
      return id;
    };
    const decidedOld = await unlock('accepted', 10, 3);
    const decidedRecent = await unlock('rejected', 10, 2);
    const pendingOld = await unlock('pending', 7, 7);
    const pendingRecent = await unlock('pending', 6, 6);
    const suspensionOld = await suspension(3);
    const suspensionRecent = await suspension(2);

    const session = async (expires: string, revoked: string | null) => {
      const id = newToken();
      await server.db
        .insertInto('dashboard_sessions')
        .values({
          id,
          token_hash: hashToken(newToken()),
          parent_id: alice.adminId,
          created_at: ago(30),
          expires_at: expires,
          revoked_at: revoked,
        })
        .execute();
      return id;
    };
    const expiredSession = await session(ago(1), null);
    const revokedSession = await session(ago(-5), ago(1));
    const liveSession = await session(ago(-5), null);

    const oneTimeToken = async (expires: string) => {
      const id = newToken();
      await server.db
        .insertInto('one_time_tokens')
        .values({
          id,
          purpose: 'magicLink',
          token_hash: hashToken(newToken()),
          parent_id: alice.adminId,
          expires_at: expires,
          used_at: null,
          created_at: ago(10),
        })
        .execute();
      return id;
    };
    const tokenLongExpired = await oneTimeToken(ago(7));
    const tokenRecentlyExpired = await oneTimeToken(ago(6));

    const code = async (expires: string) => {
      const id = newToken();
      await server.db
        .insertInto('connection_codes')
        .values({
          id,
          code_hash: hashToken(newToken()),
          child_id: mac.childId,
          expires_at: expires,
          created_at: ago(1),
        })
        .execute();
      return id;
    };
    const expiredCode = await code(ago(0, 1));
    const liveCode = await code(ago(0, -1));

    await server.db
      .insertInto('rate_limit_counters')
      .values([
        { bucket: 'retention-test-old', window_start: ago(2), count: 3 },
        { bucket: 'retention-test-new', window_start: ago(0, 1), count: 3 },
      ])
      .execute();

    const report = await runRetention(deps, NOW);
    expect(report.unlockRequests).toBeGreaterThanOrEqual(2);

    expect(await exists('unlock_requests', decidedOld)).toBe(false);
    expect(await exists('unlock_requests', decidedRecent)).toBe(true);
    expect(await exists('unlock_requests', pendingOld)).toBe(false);
    expect(await exists('unlock_requests', pendingRecent)).toBe(true);
    expect(await exists('mac_suspend_filter_requests', suspensionOld)).toBe(false);
    expect(await exists('mac_suspend_filter_requests', suspensionRecent)).toBe(true);

    const ids = async (table: 'dashboard_sessions' | 'one_time_tokens' | 'connection_codes') =>
      (await server.db.selectFrom(table).select('id').execute()).map((row) => row.id);
    const sessions = await ids('dashboard_sessions');
    expect(sessions).not.toContain(expiredSession);
    expect(sessions).not.toContain(revokedSession);
    expect(sessions).toContain(liveSession);
    const tokens = await ids('one_time_tokens');
    expect(tokens).not.toContain(tokenLongExpired);
    expect(tokens).toContain(tokenRecentlyExpired);
    const codes = await ids('connection_codes');
    expect(codes).not.toContain(expiredCode);
    expect(codes).toContain(liveCode);
    const buckets = (
      await server.db.selectFrom('rate_limit_counters').select('bucket').execute()
    ).map((row) => row.bucket);
    expect(buckets).not.toContain('retention-test-old');
    expect(buckets).toContain('retention-test-new');
  });
});

describe('one run per day across instances (§9)', () => {
  test('the first claim of a day runs; later ones skip; the next day runs again', async () => {
    const day = new Date('2025-04-10T02:30:00.000Z');
    const mac = await childWithMac(server, alice.adminId);
    const old = await insertLine(server, mac.computerUserId, '2025-03-01T00:00:00Z', 'Notes', 'x');

    const [first, second] = await Promise.all([
      runDailyRetention(deps, day),
      runDailyRetention(deps, new Date('2025-04-10T02:30:00.500Z')),
    ]);
    expect([first === null, second === null].sort()).toEqual([false, true]);
    expect(await exists('keystroke_lines', old)).toBe(false);

    const later = await runDailyRetention(deps, new Date('2025-04-10T23:00:00.000Z'));
    expect(later).toBeNull();
    const next = await runDailyRetention(deps, new Date('2025-04-11T02:30:00.000Z'));
    expect(next).not.toBeNull();

    const runs = await server.db
      .selectFrom('job_runs')
      .selectAll()
      .where('job', '=', RETENTION_JOB)
      .orderBy('run_key')
      .execute();
    expect(runs.map((run) => run.run_key)).toEqual(['2025-04-10', '2025-04-11']);
    expect(runs.every((run) => run.finished_at !== null)).toBe(true);
  });

  test('a claim taken by another instance makes this one skip', async () => {
    const day = new Date('2025-05-01T02:30:00.000Z');
    expect(await claimJobRun(server.db, RETENTION_JOB, '2025-05-01', day)).toBe(true);
    expect(await runDailyRetention(deps, day)).toBeNull();
  });
});

describe('screen time (issue 34)', () => {
  test('minutes and requests for more time older than 8 days go; the week stays', async () => {
    const { childId, computerUserId } = await childWithMac(server, alice.adminId, 'Time');
    const minute = (days: number) => ({
      computer_user_id: computerUserId,
      child_id: childId,
      minute: ago(days),
      site: 'a.example',
    });
    await server.db
      .insertInto('screen_time_minutes')
      .values([minute(9), minute(8), minute(7), minute(1)])
      .execute();
    const request = (id: string, days: number) => ({
      id,
      child_id: childId,
      computer_user_id: computerUserId,
      day: ago(days).slice(0, 10),
      requested_minutes: 15,
      granted_minutes: 15,
      status: 'accepted' as const,
      request_comment: null,
      response_comment: null,
      created_at: ago(days),
      updated_at: ago(days),
    });
    const [old, recent] = [newToken(), newToken()];
    await server.db
      .insertInto('more_time_requests')
      .values([request(old, 9), request(recent, 6)])
      .execute();
    const report = await runRetention(deps, NOW);
    expect(report.screenTimeMinutes).toBeGreaterThanOrEqual(2);
    const left = await server.db
      .selectFrom('screen_time_minutes')
      .select('minute')
      .where('child_id', '=', childId)
      .orderBy('minute')
      .execute();
    expect(left.map((row) => row.minute)).toEqual([ago(7), ago(1)]);
    const requests = await server.db
      .selectFrom('more_time_requests')
      .select('id')
      .where('child_id', '=', childId)
      .execute();
    expect(requests.map((row) => row.id)).toEqual([recent]);
  });
});
