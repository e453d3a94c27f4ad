import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { dataExportsSettled } from '../src/exports/data-export.ts';
import { runRetention } from '../src/jobs/retention.ts';
import { createScreenshotStorage, EXPORT_REDIRECT_URL_SECONDS } from '../src/services/storage.ts';
import { childWithMac, insertShot, TINY_JPEG } from './activity-helpers.ts';
import { startS3Fake } from './fakes/s3.ts';
import { createTestServer } from './harness.ts';
import { readZip } from './zip-reader.ts';

// Issue 12: a data export is kept in the S3-compatible store, so an instance that did not build it
// (its own DATA_DIR, the same database) serves the emailed link: a redirect to a signed URL of the
// store, valid a few minutes and never past the link's expiry. s3rver on 127.0.0.1 plays the store;
// it checks a URL's expiry against the real time, so the clock starts at the real time.

const BUCKET = 'keyward-exports-test';
const s3 = await startS3Fake(BUCKET);
const { endpoint, client } = s3;

/** Instance A: builds the export (the test server). */
const server = await createTestServer({
  env: s3.env,
});
server.clock.set(new Date());

/** Instance B: the same configuration and database, a DATA_DIR of its own. */
const otherDataDir = mkdtempSync(path.join(tmpdir(), 'keyward-instance-b-'));
const other = await buildApp({
  config: { ...server.config, dataDir: otherDataDir },
  db: server.db,
  clock: server.clock,
  mailer: { async send() {} },
});

afterAll(async () => {
  await other.close();
  await server.close();
  await s3.close();
  rmSync(otherDataDir, { recursive: true, force: true });
});

async function bucketKeys() {
  const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (page.Contents ?? []).map((object) => object.Key);
}

const onOther = (url: string) => {
  const parsed = new URL(url);
  return other.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
};

async function exportOf(token: string) {
  const requested = await server.call('RequestDataExport', undefined, { token });
  expect(requested.status).toBe(200);
  await dataExportsSettled();
  return requested.body.exportId as string;
}

describe('data export in the S3-compatible store', () => {
  test('an export built by one instance downloads from another instance on the same database', async () => {
    const parent = await server.signUpVerifiedParent();
    const { computerUserId } = await childWithMac(server, parent.adminId, 'Sam');
    const shotId = await insertShot(server, computerUserId, new Date().toISOString());
    const shot = await server.db
      .selectFrom('screenshots')
      .select('object_key')
      .where('id', '=', shotId)
      .executeTakeFirstOrThrow();
    await client.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: shot.object_key,
        Body: TINY_JPEG,
        ContentType: 'image/jpeg',
      }),
    );

    const exportId = await exportOf(parent.token);
    expect(await bucketKeys()).toContain(`test-data-exports/${exportId}.zip`);
    // nothing is left in the building instance's DATA_DIR
    const builtIn = path.join(server.config.dataDir, 'exports');
    expect(existsSync(builtIn) ? readdirSync(builtIn) : []).toEqual([]);
    const row = await server.db
      .selectFrom('data_exports')
      .select(['storage_key', 'size_bytes'])
      .where('id', '=', exportId)
      .executeTakeFirstOrThrow();
    expect(row.storage_key).toBe(`test-data-exports/${exportId}.zip`);

    const link = server.linkIn(
      server.lastEmailTo(parent.email, 'data-export-ready'),
      '/data-export/',
    );
    const response = await onOther(link.toString());
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const location = new URL(String(response.headers.location));
    expect(location.origin).toBe(endpoint);
    expect(location.pathname).toBe(`/${BUCKET}/test-data-exports/${exportId}.zip`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe(String(EXPORT_REDIRECT_URL_SECONDS));

    const zip = await fetch(location);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toMatch(/^attachment; filename="Keyward-data-/);
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.length).toBe(Number(row.size_bytes));
    const files = readZip(bytes);
    expect(JSON.parse(files.get('account.json')!.toString()).account.id).toBe(parent.adminId);
    expect(files.get(`screenshots/${shotId}.jpg`)).toEqual(TINY_JPEG);

    // GetDataExport on the other instance answers a link that it serves too
    const status = await other.inject({
      method: 'POST',
      url: '/pairql/dashboard/GetDataExport',
      headers: { 'content-type': 'application/json', 'x-admintoken': parent.token },
      payload: JSON.stringify({ exportId }),
    });
    expect(status.json()).toMatchObject({ status: 'ready', progress: 100 });
    expect((await onOther(status.json().url)).statusCode).toBe(302);
  });

  test('the redirect never outlives the link, an expired link is refused, retention empties the bucket', async () => {
    const parent = await server.signUpVerifiedParent();
    const exportId = await exportOf(parent.token);
    const link = server.linkIn(
      server.lastEmailTo(parent.email, 'data-export-ready'),
      '/data-export/',
    );
    const started = server.clock.now();

    // two minutes before the link expires, the store's URL lasts two minutes
    server.clock.set(new Date(started.getTime() + 24 * 3_600_000 - 120_000));
    const late = await onOther(link.toString());
    expect(late.statusCode).toBe(302);
    expect(new URL(String(late.headers.location)).searchParams.get('X-Amz-Expires')).toBe('120');

    server.clock.set(new Date(started.getTime() + 24 * 3_600_000 + 1000));
    const expired = await onOther(link.toString());
    expect(expired.statusCode).toBe(401);
    expect(expired.json().userMessage).toMatch(/expired/);

    // the nightly job, on the instance that did not build it, removes the object
    const report = await runRetention(
      {
        db: server.db,
        storage: createScreenshotStorage({ ...server.config, dataDir: otherDataDir }, server.clock),
        mode: 'test',
      },
      server.clock.now(),
    );
    expect(report.dataExports).toBeGreaterThanOrEqual(1);
    expect(await bucketKeys()).not.toContain(`test-data-exports/${exportId}.zip`);
    server.clock.set(new Date());
  });
});
