import { existsSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { toDbTime } from '../src/db/values.ts';
import { dataExportsSettled } from '../src/exports/data-export.ts';
import { runRetention } from '../src/jobs/retention.ts';
import {
  createScreenshotStorage,
  type LocalScreenshotStorage,
  localExportFile,
} from '../src/services/storage.ts';
import { childWithMac, insertLine, insertShot, TINY_JPEG } from './activity-helpers.ts';
import { addKey, addKeychain, securityEvents, website } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';
import { addMethod, addRule, slackConfig } from './notifications-fixtures.ts';
import { readZip } from './zip-reader.ts';

// Issue 12: 'Download my data'. The ZIP is built in the background, its progress polled with
// GetDataExport, its link emailed and signed; the contents round-trip what the database holds,
// without a single secret. Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server.close());

const download = (url: string) => {
  const parsed = new URL(url);
  return server.app.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
};

async function readyExport(token: string) {
  const requested = await server.call('RequestDataExport', undefined, { token });
  expect(requested.status).toBe(200);
  await dataExportsSettled();
  const status = await server.call(
    'GetDataExport',
    { exportId: requested.body.exportId },
    { token },
  );
  expect(status.status).toBe(200);
  return { exportId: requested.body.exportId as string, status: status.body };
}

describe('data export', () => {
  test('the ZIP holds the family: account, children, computers, keychains, requests, notifications, events, activity and screenshots, and no secret', async () => {
    const parent = await server.signUpVerifiedParent();
    const { childId, computerUserId } = await childWithMac(server, parent.adminId, 'Sam');
    const keychainId = await addKeychain(server, parent.adminId, { name: 'Homework' });
    await addKey(server, keychainId, website('khanacademy.org'));
    const slack = slackConfig();
    const methodId = await addMethod(server, parent.adminId, slack);
    await addRule(server, parent.adminId, methodId, 'unlockRequestSubmitted');
    const unlockId = await server.db
      .insertInto('unlock_requests')
      .values({
        id: '0d3b9b5e-6c1a-4f7e-9a2b-1c2d3e4f5a6b',
        computer_user_id: computerUserId,
        status: 'pending',
        app_bundle_id: 'com.apple.Safari',
        url: 'https://youtube.com/watch?v=1',
        hostname: 'youtube.com',
        ip_address: null,
        request_comment: 'for school',
        response_comment: null,
        created_at: toDbTime(server.clock.now()),
        updated_at: toDbTime(server.clock.now()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertLine(server, computerUserId, '2025-01-14T10:00:00.000Z', 'Notes', 'hello world');
    const storage = createScreenshotStorage(server.config, server.clock) as LocalScreenshotStorage;
    const shotId = await insertShot(server, computerUserId, '2025-01-14T10:01:00.000Z');
    const shot = await server.db
      .selectFrom('screenshots')
      .select('object_key')
      .where('id', '=', shotId)
      .executeTakeFirstOrThrow();
    await storage.write(shot.object_key, TINY_JPEG);
    const missingShotId = await insertShot(server, computerUserId, '2025-01-14T10:02:00.000Z');

    // a second factor too: its secret must not be in the export
    const totp = await server.call('StartTotpEnrolment', undefined, { token: parent.token });
    const confirmed = await server.call(
      'ConfirmTotpEnrolment',
      {
        code: await generate({
          secret: totp.body.secret,
          epoch: Math.floor(server.clock.now().getTime() / 1000),
        }),
      },
      { token: parent.token },
    );

    const { exportId, status } = await readyExport(parent.token);
    expect(status).toMatchObject({ status: 'ready', progress: 100 });
    expect(status.url).toContain(`/data-export/${exportId}?expires=`);
    expect(await securityEvents(server, parent.adminId, 'dataExportRequested')).toHaveLength(1);

    const email = server.lastEmailTo(parent.email, 'data-export-ready');
    const emailed = server.linkIn(email, '/data-export/');
    expect(email.text).toContain('24 hours');

    const response = await download(emailed.toString());
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="Keyward-data-/);
    const files = readZip(response.rawPayload);
    const json = (name: string) => JSON.parse(files.get(name)!.toString('utf8'));

    expect([...files.keys()].sort()).toEqual(
      [
        'README.txt',
        'account.json',
        'activity.json',
        'children.json',
        'computers.json',
        'ios-devices.json',
        'keychains.json',
        'notifications.json',
        'requests.json',
        'security-events.json',
        `screenshots/${shotId}.jpg`,
        'audit-log.json',
      ].sort(),
    );
    expect(files.get(`screenshots/${shotId}.jpg`)).toEqual(TINY_JPEG);

    const account = json('account.json');
    expect(account.account).toMatchObject({ id: parent.adminId, email: parent.email });
    expect(account.parents[0]).toEqual({
      id: parent.adminId,
      email: parent.email,
      role: 'owner',
      status: 'active',
    });
    expect(account.signInSecurity[0]).toMatchObject({ authenticatorApp: true, passkeys: [] });

    const children = json('children.json').children;
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ id: childId, name: 'Sam', keyloggingEnabled: false });
    expect(json('computers.json').computers[0].users[0].id).toBe(computerUserId);
    const keychains = json('keychains.json').keychains;
    expect(keychains[0]).toMatchObject({ id: keychainId, name: 'Homework' });
    expect(keychains[0].keys[0].key).toEqual(website('khanacademy.org'));
    expect(json('requests.json').unlockRequests[0]).toMatchObject({
      id: unlockId.id,
      url: 'https://youtube.com/watch?v=1',
      requestComment: 'for school',
    });
    const notifications = json('notifications.json');
    expect(notifications.methods.map((m: { config: { case: string } }) => m.config.case)).toContain(
      'slack',
    );
    expect(notifications.rules[0]).toMatchObject({ methodId, trigger: 'unlockRequestSubmitted' });
    expect(json('security-events.json').map((e: { event: string }) => e.event)).toContain(
      'totpEnabled',
    );
    expect(json('audit-log.json').map((e: { operation: string }) => e.operation)).toContain(
      'ConfirmTotpEnrolment',
    );
    const activity = json('activity.json');
    expect(activity.keystrokeLines[0]).toMatchObject({ appName: 'Notes', line: 'hello world' });
    expect(activity.screenshots).toEqual([
      expect.objectContaining({ id: shotId, width: 1280, file: `screenshots/${shotId}.jpg` }),
      expect.objectContaining({ id: missingShotId, file: null }),
    ]);

    // no secret anywhere
    const everything = [...files.values()].map((b) => b.toString('latin1')).join('\n');
    const parentRow = await server.db
      .selectFrom('parents')
      .select('password_hash')
      .where('id', '=', parent.adminId)
      .executeTakeFirstOrThrow();
    const sessionHashes = await server.db
      .selectFrom('dashboard_sessions')
      .select('token_hash')
      .where('parent_id', '=', parent.adminId)
      .execute();
    const secrets = [
      parentRow.password_hash,
      parent.password,
      parent.token,
      ...sessionHashes.map((s) => s.token_hash),
      slack.case === 'slack' ? slack.token : '',
      totp.body.secret,
      ...confirmed.body.recoveryCodes,
      'encryptedToken',
      'passwordHash',
      'secretEncrypted',
      'codeHash',
    ];
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  test('another family cannot read the export, exactly like a missing id; bad input is a 400', async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    const { exportId } = await readyExport(alice.token);
    const foreign = await server.call('GetDataExport', { exportId }, { token: bob.token });
    const missing = await server.call(
      'GetDataExport',
      { exportId: '7b0c6a1e-2f3d-4c5b-8a9e-0f1e2d3c4b5a' },
      { token: bob.token },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.entityName).toBe('Data export');
    const { requestId: _a, ...foreignBody } = foreign.body;
    const { requestId: _b, ...missingBody } = missing.body;
    expect(foreignBody).toEqual(missingBody);

    const bad = await server.call('GetDataExport', { exportId: 'x' }, { token: bob.token });
    expect(bad.status).toBe(400);
    expect(bad.body.userMessage).toEqual(expect.any(String));
  });

  test('the download link refuses a wrong signature, another id and an expired link', async () => {
    const parent = await server.signUpVerifiedParent();
    const { exportId, status } = await readyExport(parent.token);
    const url = new URL(status.url);

    const tampered = new URL(url);
    tampered.searchParams.set('signature', '0'.repeat(64));
    expect((await download(tampered.toString())).statusCode).toBe(401);

    const other = await readyExport(parent.token);
    const swapped = new URL(url);
    swapped.pathname = `/data-export/${other.exportId}`;
    expect((await download(swapped.toString())).statusCode).toBe(401);

    expect((await download(url.toString())).statusCode).toBe(200);
    server.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const expired = await download(url.toString());
    expect(expired.statusCode).toBe(401);
    expect(JSON.parse(expired.body).userMessage).toMatch(/expired/);
    const later = await server.call('GetDataExport', { exportId }, { token: parent.token });
    expect(later.body).toEqual({ status: 'expired', progress: 100 });
  });

  test('RequestDataExport answers before the ZIP is built; progress is reported', async () => {
    const parent = await server.signUpVerifiedParent();
    const { computerUserId } = await childWithMac(server, parent.adminId);
    for (let i = 0; i < 45; i++) {
      await insertShot(
        server,
        computerUserId,
        `2025-01-14T10:${String(i).padStart(2, '0')}:00.000Z`,
      );
    }
    const requested = await server.call('RequestDataExport', undefined, { token: parent.token });
    const first = await server.call(
      'GetDataExport',
      { exportId: requested.body.exportId },
      { token: parent.token },
    );
    expect(['pending', 'building', 'ready']).toContain(first.body.status);
    expect(first.body.progress).toBeGreaterThanOrEqual(0);
    await dataExportsSettled();
    const done = await server.call(
      'GetDataExport',
      { exportId: requested.body.exportId },
      { token: parent.token },
    );
    expect(done.body).toMatchObject({ status: 'ready', progress: 100 });
    const files = readZip((await download(done.body.url)).rawPayload);
    expect(JSON.parse(files.get('activity.json')!.toString()).screenshots).toHaveLength(45);
  });
});

describe('retention', () => {
  test('the nightly job removes expired exports with their ZIP, and expired sign-in challenges', async () => {
    const parent = await server.signUpVerifiedParent();
    const { exportId: old } = await readyExport(parent.token);
    const exportFile = (id: string) =>
      localExportFile(path.join(server.config.dataDir, 'exports'), id);
    const file = exportFile(old);
    expect(existsSync(file)).toBe(true);
    await server.call('StartPasskeyLogin', {});

    server.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const { exportId: fresh } = await readyExport(parent.token);
    const deps = {
      db: server.db,
      storage: createScreenshotStorage(server.config, server.clock),
      mode: 'test' as const,
    };
    const report = await runRetention(deps, server.clock.now());
    expect(report.dataExports).toBeGreaterThanOrEqual(1);
    expect(report.signInChallenges).toBeGreaterThanOrEqual(1);
    expect(existsSync(file)).toBe(false);
    const left = await server.db
      .selectFrom('data_exports')
      .select('id')
      .where('id', 'in', [old, fresh])
      .execute();
    expect(left.map((r) => r.id)).toEqual([fresh]);
    expect(existsSync(exportFile(fresh))).toBe(true);
    const gone = await server.call('GetDataExport', { exportId: old }, { token: parent.token });
    expect(gone.status).toBe(404);
  });
});
