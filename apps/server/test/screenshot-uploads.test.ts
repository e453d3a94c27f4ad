import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildApp } from '../src/app.ts';
import { dataExportsSettled } from '../src/exports/data-export.ts';
import { runRetention } from '../src/jobs/retention.ts';
import { createScreenshotStorage } from '../src/services/storage.ts';
import {
  childWithIpad,
  childWithMac,
  insertShot,
  requestSigned,
  TINY_JPEG,
} from './activity-helpers.ts';
import { deviceCall, serverWithParents } from './fixtures.ts';
import { readZip } from './zip-reader.ts';

// Issue 19, finding 7: a screenshot is shown only once its image is stored. The device's signed
// upload (Mac CreateSignedScreenshotUpload, iOS ScreenshotUploadUrl) writes the row, but feeds,
// summaries, the home page and the data export count it only after the PUT has stored the JPEG; an
// upload URL stores one image; the retention job removes rows whose image never came.
// The fake clock starts at 2025-01-15T12:00:00Z.

const { server, alice } = await serverWithParents();
const DAY_15 = { start: '2025-01-14T23:59:59.999Z', end: '2025-01-15T23:59:59.999Z' };
const storage = createScreenshotStorage(server.config, server.clock);

const call = (op: string, input: unknown, token = alice.token) => server.call(op, input, { token });

async function macUpload(token: string) {
  const issued = await deviceCall(server, 'CreateSignedScreenshotUpload', token, {
    width: 1280,
    height: 800,
  });
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  return issued.body as { uploadUrl: string; webUrl: string };
}

async function iosUpload(token: string) {
  const issued = await server.call(
    'ScreenshotUploadUrl',
    // seconds since 2001-01-01, as the app sends a Date: the clock's now
    { width: 1170, height: 2532, createdAt: server.clock.now().getTime() / 1000 - 978_307_200 },
    { namespace: 'ios-app', token },
  );
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  return issued.body as { uploadUrl: string };
}

/** Every activity read of the child (and the family), reduced to its counts. */
async function whatTheParentSees(childId: string, token = alice.token) {
  const feed = await call('UserActivityFeed', { userId: childId, range: DAY_15 }, token);
  const summaries = await call(
    'ChildActivitySummaries',
    { childId, jsTimezoneOffsetMinutes: 0 },
    token,
  );
  const family = await call('FamilyActivitySummaries', { jsTimezoneOffsetMinutes: 0 }, token);
  const combined = await call('CombinedUsersActivityFeed', { range: DAY_15 }, token);
  const home = await call('DashboardWidgets', undefined, token);
  for (const answer of [feed, summaries, family, combined, home]) {
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  }
  const childName = summaries.body.childName as string;
  const sum = (days: { numTotal: number }[]) => days.reduce((n, day) => n + day.numTotal, 0);
  return {
    feed: feed.body.items.length as number,
    summaries: sum(summaries.body.days),
    family: sum(family.body),
    combined: combined.body.reduce(
      (n: number, entry: { items: unknown[] }) => n + entry.items.length,
      0,
    ) as number,
    home: (home.body.childActivitySummaries as { id: string; numUnreviewed: number }[]).find(
      (summary) => summary.id === childId,
    )?.numUnreviewed,
    recentScreenshots: (home.body.recentScreenshots as { childName: string }[]).filter(
      (shot) => shot.childName === childName,
    ).length,
    urls: (feed.body.items as { url: string }[]).map((item) => item.url),
  };
}

describe('a screenshot shows once its image is stored', () => {
  test('200 signed uploads without a PUT show nothing anywhere; after a PUT, that one shows', async () => {
    const mac = await childWithMac(server, alice.adminId, 'Noa');
    const start = server.clock.now();
    const issued = [];
    for (let i = 0; i < 200; i++) {
      issued.push(await macUpload(mac.token));
      // a Mac takes a screenshot at most every 10 s; half a minute keeps clear of any volume cap
      server.clock.advance(30_000);
    }
    expect(
      await server.db
        .selectFrom('screenshots')
        .select('id')
        .where('computer_user_id', '=', mac.computerUserId)
        .execute(),
    ).toHaveLength(200);

    expect(await whatTheParentSees(mac.childId)).toEqual({
      feed: 0,
      summaries: 0,
      family: 0,
      combined: 0,
      home: 0,
      recentScreenshots: 0,
      urls: [],
    });

    // the last URL is still valid: its PUT stores the image, and that screenshot shows everywhere
    const last = issued.at(-1)!;
    server.clock.set(new Date(start.getTime() + 199 * 30_000 + 10_000));
    expect((await requestSigned(server, 'PUT', last.uploadUrl, TINY_JPEG)).status).toBe(200);
    const seen = await whatTheParentSees(mac.childId);
    expect(seen).toMatchObject({
      feed: 1,
      summaries: 1,
      family: 1,
      combined: 1,
      home: 1,
      recentScreenshots: 1,
    });
    const image = await requestSigned(server, 'GET', seen.urls[0]!);
    expect(image.status).toBe(200);
    expect(Buffer.compare(image.raw, TINY_JPEG)).toBe(0);
    server.clock.set('2025-01-15T12:00:00.000Z');
  });

  test('an iPad’s screenshot follows the same rule', async () => {
    const dana = await server.signUpVerifiedParent();
    const ipad = await childWithIpad(server, dana.adminId, { name: 'Ivy' });
    const { uploadUrl } = await iosUpload(ipad.token);
    await iosUpload(ipad.token);
    expect((await whatTheParentSees(ipad.childId, dana.token)).feed).toBe(0);
    expect((await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG)).status).toBe(200);
    expect(await whatTheParentSees(ipad.childId, dana.token)).toMatchObject({
      feed: 1,
      summaries: 1,
      family: 1,
      combined: 1,
      home: 1,
      recentScreenshots: 1,
    });
  });

  test('the data export holds only stored screenshots', async () => {
    const carol = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, carol.adminId);
    const stored = await macUpload(mac.token);
    await macUpload(mac.token);
    expect((await requestSigned(server, 'PUT', stored.uploadUrl, TINY_JPEG)).status).toBe(200);

    const requested = await call('RequestDataExport', undefined, carol.token);
    expect(requested.status).toBe(200);
    await dataExportsSettled();
    const done = await call('GetDataExport', { exportId: requested.body.exportId }, carol.token);
    expect(done.body).toMatchObject({ status: 'ready' });
    const url = new URL(done.body.url);
    const zip = await server.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    const files = readZip(zip.rawPayload);
    const { screenshots } = JSON.parse(files.get('activity.json')!.toString('utf8'));
    expect(screenshots).toHaveLength(1);
    expect(screenshots[0].file).toMatch(/^screenshots\/.+\.jpg$/);
    expect(files.get(screenshots[0].file)).toEqual(TINY_JPEG);
  });

  test('items not yet stored cannot be reviewed or flagged', async () => {
    const mac = await childWithMac(server, alice.adminId);
    await macUpload(mac.token);
    const row = await server.db
      .selectFrom('screenshots')
      .select('id')
      .where('computer_user_id', '=', mac.computerUserId)
      .executeTakeFirstOrThrow();
    const flag = await call('FlagActivityItems', [row.id]);
    expect(flag.status).toBe(404);
    const review = await call('DeleteActivityItems_v2', {
      keystrokeLineIds: [],
      screenshotIds: [row.id],
    });
    expect(review.status).toBe(200);
    expect(
      await server.db
        .selectFrom('screenshots')
        .select(['flagged', 'deleted_at'])
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ flagged: null, deleted_at: null });
  });
});

describe('an upload URL stores one image', () => {
  test('the Mac app’s PUT, with its S3 headers, is taken as it is sent', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const { uploadUrl } = await macUpload(mac.token);
    const url = new URL(uploadUrl);
    // docs/device-wire.md: the app PUTs the JPEG with these headers, whatever the store
    const put = await server.app.inject({
      method: 'PUT',
      url: `${url.pathname}${url.search}`,
      payload: TINY_JPEG,
      headers: { 'content-type': 'image/jpeg', 'x-amz-acl': 'public-read' },
    });
    expect(put.statusCode).toBe(200);
  });

  test('a second PUT is refused and the first image stays', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const { uploadUrl } = await macUpload(mac.token);
    expect((await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG)).status).toBe(200);

    const other = Buffer.concat([TINY_JPEG.subarray(0, -2), Buffer.from('ffd9', 'hex')]);
    other[20] = 0x42;
    const again = await requestSigned(server, 'PUT', uploadUrl, other);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({
      id: 'c3f18a5e',
      type: 'badRequest',
      statusCode: 409,
      userMessage: expect.stringContaining('already uploaded'),
    });
    const row = await server.db
      .selectFrom('screenshots')
      .select('object_key')
      .where('computer_user_id', '=', mac.computerUserId)
      .executeTakeFirstOrThrow();
    const file = path.join(server.config.dataDir, 'screenshots', row.object_key);
    expect(Buffer.compare(readFileSync(file), TINY_JPEG)).toBe(0);
  });

  test('of parallel PUTs to one URL exactly one stores its image', async () => {
    const ipad = await childWithIpad(server, alice.adminId);
    const { uploadUrl } = await iosUpload(ipad.token);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => requestSigned(server, 'PUT', uploadUrl, TINY_JPEG)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      200, 409, 409, 409, 409, 409, 409, 409, 409, 409,
    ]);
    expect((await whatTheParentSees(ipad.childId)).feed).toBe(1);
  });

  test('a PUT for a screenshot that no longer exists stores nothing', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const { uploadUrl } = await macUpload(mac.token);
    await server.db
      .deleteFrom('screenshots')
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    const put = await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG);
    expect(put.status).toBe(404);
    expect(put.json).toMatchObject({ type: 'notFound', entityName: 'Screenshot' });
    const key = decodeURIComponent(new URL(uploadUrl).pathname.slice('/screenshots/'.length));
    expect(existsSync(path.join(server.config.dataDir, 'screenshots', key))).toBe(false);
  });

  test('when the store fails the upload can be sent again', async () => {
    let failures = 1;
    const flaky = {
      ...storage,
      async write(key: string, bytes: Buffer) {
        if (failures-- > 0) throw new Error('disk full');
        return storage.write(key, bytes);
      },
    };
    const app = await buildApp({
      config: server.config,
      db: server.db,
      clock: server.clock,
      storage: flaky,
    });
    try {
      const mac = await childWithMac(server, alice.adminId);
      const { uploadUrl } = await macUpload(mac.token);
      const url = new URL(uploadUrl);
      const put = () =>
        app.inject({
          method: 'PUT',
          url: `${url.pathname}${url.search}`,
          payload: TINY_JPEG,
          headers: { 'content-type': 'image/jpeg' },
        });
      expect((await put()).statusCode).toBe(500);
      expect((await whatTheParentSees(mac.childId)).feed).toBe(0);
      expect((await put()).statusCode).toBe(200);
      expect((await whatTheParentSees(mac.childId)).feed).toBe(1);
    } finally {
      await app.close();
    }
  });
});

describe('retention of uploads that never came', () => {
  test('rows still waiting an hour after their URL expired go, with any object; others stay', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const now = new Date('2025-01-16T02:30:00.000Z');
    const deps = { db: server.db, storage, mode: server.config.mode };
    // the other tests' leftovers first, so the count below is this test's own
    await runRetention(deps, now);
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
    // never uploaded, URL expired 2 h ago
    const abandoned = await insertShot(server, mac.computerUserId, hoursAgo(2.1), {
      awaitingUpload: { uploadExpiresAt: hoursAgo(2) },
    });
    // the server stopped between storing the image and marking it: an object, no mark
    const crashedKey = `test-screenshots/${mac.computerUserId}/1736900000--0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706.jpg`;
    const crashed = await insertShot(server, mac.computerUserId, hoursAgo(3), {
      objectKey: crashedKey,
      awaitingUpload: { uploadExpiresAt: hoursAgo(3) },
    });
    await storage.write(crashedKey, TINY_JPEG);
    // URL expired half an hour ago: its upload may still be arriving
    const recent = await insertShot(server, mac.computerUserId, hoursAgo(0.6), {
      awaitingUpload: { uploadExpiresAt: hoursAgo(0.5) },
    });
    // stored long ago
    const stored = await insertShot(server, mac.computerUserId, hoursAgo(30));

    const report = await runRetention(deps, now);
    expect(report.abandonedUploads).toBe(2);
    const left = await server.db
      .selectFrom('screenshots')
      .select('id')
      .where('computer_user_id', '=', mac.computerUserId)
      .execute();
    expect(left.map((row) => row.id).sort()).toEqual([recent, stored].sort());
    expect(left.map((row) => row.id)).not.toContain(abandoned);
    expect(left.map((row) => row.id)).not.toContain(crashed);
    expect(existsSync(path.join(server.config.dataDir, 'screenshots', crashedKey))).toBe(false);
  });
});
