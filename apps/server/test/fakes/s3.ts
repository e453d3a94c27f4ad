import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * s3rver, a local S3-compatible server, on 127.0.0.1 with one bucket: the server's S3_* settings
 * for it, an SDK client to look inside, and `close`. s3rver checks a URL's expiry against the real
 * time (a test's clock must start at the real time) but not SigV4 signatures.
 */
export async function startS3Fake(bucket: string) {
  const directory = mkdtempSync(path.join(tmpdir(), 'keyward-s3rver-'));
  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await s3rver.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    env: {
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    client: new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials }),
    async close() {
      await s3rver.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
