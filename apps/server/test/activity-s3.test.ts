import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, test } from 'vitest';
import { runRetention } from '../src/jobs/retention.ts';
import { createScreenshotStorage } from '../src/services/storage.ts';
import { newToken } from '../src/services/tokens.ts';
import { childWithMac, insertShot, requestSigned, TINY_JPEG } from './activity-helpers.ts';
import { deviceCall } from './fixtures.ts';
import { startS3Fake } from './fakes/s3.ts';
import { createTestServer } from './harness.ts';

// S3 mode (server-behaviour §7.1) against s3rver, a local S3-compatible server, on 127.0.0.1: the
// device uploads through the server's own signed PUT (one image per URL, issue 19), which stores the
// object in the bucket; the parent reads with presigned GETs (1 h) from the AWS SDK; the CSP's
// img-src; the retention job removing objects. s3rver checks expiry but not SigV4 signatures.

const BUCKET = 'keyward-test';
const s3 = await startS3Fake(BUCKET);
const { endpoint, client } = s3;

const server = await createTestServer({
  env: s3.env,
});
// s3rver compares expiry with the real time
server.clock.set(new Date());
const alice = await server.signUpVerifiedParent();

afterAll(async () => {
  await server.close();
  await s3.close();
});

async function listKeys() {
  const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  return (page.Contents ?? []).map((object) => object.Key);
}

const today = () => {
  const now = server.clock.now();
  return {
    start: new Date(now.getTime() - 12 * 3_600_000).toISOString(),
    end: new Date(now.getTime() + 12 * 3_600_000).toISOString(),
  };
};

describe('S3-compatible storage', () => {
  test('the Mac uploads through the server, which stores the object; the parent reads it from S3', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const issued = await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, {
      width: 640,
      height: 480,
    });
    expect(issued.status).toBe(200);
    const upload = new URL(issued.body.uploadUrl);
    expect(upload.origin).toBe(server.config.publicUrl);
    expect(upload.pathname).toMatch(
      new RegExp(`^/screenshots/test-screenshots/${mac.computerUserId}/\\d+--[0-9a-f-]{36}\\.jpg$`),
    );
    expect(upload.searchParams.get('expires')).toBe(
      String(Math.floor(server.clock.now().getTime() / 1000) + 90),
    );
    expect(new URL(issued.body.webUrl).searchParams.get('X-Amz-Expires')).toBe('3600');
    const key = upload.pathname.slice('/screenshots/'.length);

    // nothing in the bucket and nothing shown before the upload
    expect(await listKeys()).not.toContain(key);
    const before = await server.call(
      'UserActivityFeed',
      { userId: mac.childId, range: today() },
      { token: alice.token },
    );
    expect(before.body.items).toEqual([]);

    expect((await requestSigned(server, 'PUT', issued.body.uploadUrl, TINY_JPEG)).status).toBe(200);
    expect(await listKeys()).toContain(key);

    const feed = await server.call(
      'UserActivityFeed',
      { userId: mac.childId, range: today() },
      { token: alice.token },
    );
    expect(feed.status).toBe(200);
    const url = feed.body.items[0].url as string;
    expect(new URL(url).origin).toBe(endpoint);
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.compare(Buffer.from(await image.arrayBuffer()), TINY_JPEG)).toBe(0);

    // the URL stores one image: a second PUT is refused and the object stays as it was
    const again = await requestSigned(
      server,
      'PUT',
      issued.body.uploadUrl,
      Buffer.concat([TINY_JPEG, Buffer.from('extra')]),
    );
    expect(again.status).toBe(409);
    const kept = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(Buffer.from(await kept.Body!.transformToByteArray())).toEqual(TINY_JPEG);
  });

  test('an upload URL issued more than 90 s ago is refused; nothing reaches the bucket', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const issued = await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, {
      width: 640,
      height: 480,
    });
    server.clock.advance(91_000);
    const put = await requestSigned(server, 'PUT', issued.body.uploadUrl, TINY_JPEG);
    server.clock.set(new Date());
    expect(put.status).toBe(401);
    expect(put.json).toMatchObject({ id: '3d81b6e4', type: 'unauthorized' });
    const key = new URL(issued.body.uploadUrl).pathname.slice('/screenshots/'.length);
    expect(await listKeys()).not.toContain(key);
  });

  test("the dashboard's CSP lets images load from the store", async () => {
    const response = await server.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(response.headers['content-security-policy']);
    const imgSrc = csp.split(';').find((directive) => directive.trim().startsWith('img-src'));
    expect(imgSrc).toContain(endpoint);
  });

  test('the server serves no image itself in S3 mode: reads go to the store', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/screenshots/test-screenshots/${newToken()}/1--${newToken()}.jpg?expires=1&signature=00`,
    });
    // (the SPA's page, as for any other unknown path)
    expect(String(response.headers['content-type'])).not.toContain('image/jpeg');
  });

  test('retention removes due objects and orphans from the bucket', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const due = `test-screenshots/${mac.computerUserId}/1--${newToken()}.jpg`;
    const orphan = `test-screenshots/${mac.computerUserId}/2--${newToken()}.jpg`;
    const kept = `test-screenshots/${mac.computerUserId}/3--${newToken()}.jpg`;
    for (const Key of [due, orphan, kept]) {
      await client.send(
        new PutObjectCommand({ Bucket: BUCKET, Key, Body: TINY_JPEG, ContentType: 'image/jpeg' }),
      );
    }
    const now = new Date(Date.now() + 2 * 86_400_000);
    await insertShot(
      server,
      mac.computerUserId,
      new Date(now.getTime() - 22 * 86_400_000).toISOString(),
      {
        objectKey: due,
      },
    );
    await insertShot(server, mac.computerUserId, now.toISOString(), { objectKey: kept });

    const storage = createScreenshotStorage(server.config, server.clock);
    expect(storage.kind).toBe('s3');
    const report = await runRetention({ db: server.db, storage, mode: 'test' }, now);
    expect(report.screenshots).toBeGreaterThanOrEqual(1);

    const keys = await listKeys();
    expect(keys).not.toContain(due);
    expect(keys).not.toContain(orphan);
    expect(keys).toContain(kept);
  });
});
