import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream, mkdirSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config, S3Config } from '../config.ts';
import type { Clock } from './clock.ts';

// Screenshot objects (server-behaviour §7.1). Objects are private: the device uploads through a
// signed PUT URL valid 90 s (image/jpeg only), and every URL the dashboard gets is a signed GET valid
// 1 h. Two backends: any S3-compatible store (reads presigned with the AWS SDK), or a local directory
// served by the server's own signed GET route (http/screenshots.ts).
// Uploads always go through the server's own signed PUT route, with either backend (issue 19): the
// server then knows the moment an image is stored (a screenshot is shown only from then on), lets a
// URL store exactly one image, and checks its type and size. A presigned S3 PUT could do none of
// these with the apps as they are: S3 would not tell us of the upload, and would let the same URL
// overwrite the object (or store any size) until it expires.
// The same store keeps the data export ZIPs (issue 12, `exports`): with S3 every instance of the
// server reads what another built; the local directory (DATA_DIR/exports) serves only its own
// instance, as it does for screenshots.

export const UPLOAD_URL_SECONDS = 90;
/** Default lifetime of read URLs; `SCREENSHOT_READ_URL_SECONDS` changes it (config.ts). */
export const READ_URL_SECONDS = 60 * 60;
export const MAX_SCREENSHOT_BYTES = 10 * 1024 * 1024;
export const SCREENSHOT_CONTENT_TYPE = 'image/jpeg';

export interface StoredObject {
  key: string;
  lastModified: Date;
}

export type SignedMethod = 'GET' | 'PUT';
export type SignatureVerdict = 'ok' | 'badKey' | 'badSignature' | 'expired';

export interface ScreenshotStorage {
  kind: 'local' | 's3';
  /** Origin of the image URLs when it is not the server itself (for the CSP's img-src). */
  imageOrigin: string | undefined;
  /** The server's own signed PUT URL for the object (http/screenshots.ts), valid 90 s. */
  uploadUrl(key: string): Promise<string>;
  /** Checks a request to one of the server's own signed URLs; the reason when it must be refused. */
  verify(method: SignedMethod, key: string, expires: unknown, signature: unknown): SignatureVerdict;
  /** Stores an uploaded image (the upload route calls it once it holds the screenshot's row). */
  write(key: string, bytes: Buffer): Promise<void>;
  readUrl(key: string): Promise<string>;
  /** The object's bytes, or null when it does not exist (the data export reads screenshots). */
  read(key: string): Promise<Buffer | null>;
  /** Removes objects; missing ones are ignored. */
  remove(keys: readonly string[]): Promise<void>;
  /** Every stored object whose key starts with `prefix` (for the retention job's orphan sweep). */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** The data export ZIPs (issue 12). */
  exports: ExportStore;
}

/** How a stored export is downloaded: a signed redirect (S3), or a file this instance serves. */
export type ExportDownload = { redirect: string } | { file: string; size: number };

export interface ExportStore {
  /** Where a build writes its ZIP before `save` (this instance's DATA_DIR/exports). */
  workDirectory: string;
  /** Stores the finished ZIP written at `file` (which is consumed) as the export's object; answers its key. */
  save(exportId: string, file: string): Promise<string>;
  /**
   * The download of a stored export, or null when it is not (or no longer) there. A redirect URL is
   * valid for at most `EXPORT_REDIRECT_URL_SECONDS` and never past `until` (the link's expiry).
   */
  download(
    exportId: string,
    options: { until: Date; fileName: string },
  ): Promise<ExportDownload | null>;
  /** Removes the exports' objects; missing ones are ignored. */
  remove(exportIds: readonly string[]): Promise<void>;
}

export const EXPORT_CONTENT_TYPE = 'application/zip';
/** A download link redirects to a signed store URL: the browser follows it at once. */
export const EXPORT_REDIRECT_URL_SECONDS = 5 * 60;

/** `{dir}/{ownerId}/{unixSeconds}--{uuid}.jpg`, dir `screenshots` in production, else `{mode}-screenshots`. */
export function screenshotObjectKey(
  mode: Config['mode'],
  ownerId: string,
  createdAt: Date,
  id: string,
): string {
  const dir = mode === 'production' ? 'screenshots' : `${mode}-screenshots`;
  return `${dir}/${ownerId}/${Math.max(0, Math.floor(createdAt.getTime() / 1000))}--${id}.jpg`;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const OBJECT_KEY = new RegExp(`^(?:[a-z]+-)?screenshots/${UUID}/\\d{1,12}--${UUID}\\.jpg$`);

/** Only keys of the exact shape above are ever mapped to a file: no `..`, no other directories. */
export function isScreenshotObjectKey(key: string): boolean {
  return OBJECT_KEY.test(key);
}

const EXPORT_ID = new RegExp(`^${UUID}$`);

/** `{dir}/{exportId}.zip` in the store, dir `data-exports` in production, else `{mode}-data-exports`. */
export function exportObjectKey(mode: Config['mode'], exportId: string): string {
  if (!EXPORT_ID.test(exportId)) throw new Error(`not an export id: ${exportId}`);
  const dir = mode === 'production' ? 'data-exports' : `${mode}-data-exports`;
  return `${dir}/${exportId}.zip`;
}

/** The local store's file of an export: DATA_DIR/exports/{exportId}.zip. */
export function localExportFile(directory: string, exportId: string): string {
  if (!EXPORT_ID.test(exportId)) throw new Error(`not an export id: ${exportId}`);
  return path.join(directory, `${exportId}.zip`);
}

export function createScreenshotStorage(config: Config, clock: Clock): ScreenshotStorage {
  const readUrlSeconds = config.screenshotReadUrlSeconds;
  const exportsDirectory = path.join(config.dataDir, 'exports');
  return config.s3
    ? createS3Storage(config.s3, clock, readUrlSeconds, {
        mode: config.mode,
        exportsDirectory,
        signer: createUrlSigner({ baseUrl: config.publicUrl, hmacKey: config.hmacKey, clock }),
      })
    : createLocalStorage({
        directory: path.join(config.dataDir, 'screenshots'),
        exportsDirectory,
        baseUrl: config.publicUrl,
        hmacKey: config.hmacKey,
        clock,
        readUrlSeconds,
      });
}

// ---------------------------------------------------------------------------------------------
// The server's own signed URLs: `{baseUrl}/screenshots/{key}?expires=…&signature=…`, an HMAC over
// method, key and expiry.

export interface UrlSigner {
  signedUrl(method: SignedMethod, key: string, seconds: number): string;
  verify(method: SignedMethod, key: string, expires: unknown, signature: unknown): SignatureVerdict;
}

export function createUrlSigner(options: {
  /** Where the server answers, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  hmacKey: Buffer;
  clock: Clock;
}): UrlSigner {
  const sign = (method: SignedMethod, key: string, expires: number) =>
    createHmac('sha256', options.hmacKey)
      .update(`screenshot\n${method}\n${key}\n${expires}`)
      .digest('hex');
  return {
    // Keys come from screenshot rows the server wrote (screenshotObjectKey); they are checked where
    // a request names one (verify), not again for each of the thousands of URLs of a feed.
    signedUrl(method, key, seconds) {
      const expires = Math.floor(options.clock.now().getTime() / 1000) + seconds;
      return `${options.baseUrl}/screenshots/${key}?expires=${expires}&signature=${sign(method, key, expires)}`;
    },
    verify(method, key, expires, signature) {
      if (!isScreenshotObjectKey(key)) return 'badKey';
      if (typeof expires !== 'string' || !/^\d{1,12}$/.test(expires)) return 'badSignature';
      if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) {
        return 'badSignature';
      }
      const expected = Buffer.from(sign(method, key, Number(expires)), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'badSignature';
      if (Number(expires) * 1000 < options.clock.now().getTime()) return 'expired';
      return 'ok';
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Local directory

export interface LocalStorageOptions {
  directory: string;
  /** Where data export ZIPs are kept (DATA_DIR/exports). */
  exportsDirectory: string;
  /** Where the server answers, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  hmacKey: Buffer;
  clock: Clock;
  readUrlSeconds?: number;
}

export interface LocalScreenshotStorage extends ScreenshotStorage {
  kind: 'local';
  filePath(key: string): string;
}

export function createLocalStorage(options: LocalStorageOptions): LocalScreenshotStorage {
  const root = path.resolve(options.directory);
  const signer = createUrlSigner(options);
  const filePath = (key: string) => {
    if (!isScreenshotObjectKey(key)) throw new Error(`not a screenshot object key: ${key}`);
    const file = path.resolve(root, key);
    if (!file.startsWith(`${root}${path.sep}`)) throw new Error(`outside the store: ${key}`);
    return file;
  };

  const exportsDirectory = path.resolve(options.exportsDirectory);
  return {
    kind: 'local',
    // the API's public origin (PUBLIC_URL): the same as the page's unless configured apart
    imageOrigin: new URL(options.baseUrl).origin,
    exports: {
      workDirectory: exportsDirectory,
      async save(exportId, file) {
        const target = localExportFile(exportsDirectory, exportId);
        mkdirSync(exportsDirectory, { recursive: true });
        await rename(file, target);
        return path.basename(target);
      },
      async download(exportId) {
        const file = localExportFile(exportsDirectory, exportId);
        const info = await stat(file).catch(() => undefined);
        return info ? { file, size: info.size } : null;
      },
      async remove(exportIds) {
        for (const id of exportIds) {
          await rm(localExportFile(exportsDirectory, id), { force: true });
        }
      },
    },
    async uploadUrl(key) {
      return signer.signedUrl('PUT', key, UPLOAD_URL_SECONDS);
    },
    async readUrl(key) {
      return signer.signedUrl('GET', key, options.readUrlSeconds ?? READ_URL_SECONDS);
    },
    verify: signer.verify,
    async read(key) {
      if (!isScreenshotObjectKey(key)) return null;
      try {
        return await readFile(filePath(key));
      } catch {
        return null;
      }
    },
    filePath,
    async write(key, bytes) {
      const file = filePath(key);
      mkdirSync(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Date.now()}.part`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, file);
    },
    async remove(keys) {
      for (const key of keys) {
        if (!isScreenshotObjectKey(key)) continue;
        await rm(filePath(key), { force: true });
      }
    },
    async *list(prefix) {
      let dirs: string[];
      try {
        dirs = await readdir(root);
      } catch {
        return;
      }
      for (const dir of dirs) {
        if (!`${dir}/`.startsWith(prefix) && !prefix.startsWith(`${dir}/`)) continue;
        let owners: string[];
        try {
          owners = await readdir(path.join(root, dir));
        } catch {
          continue;
        }
        for (const owner of owners) {
          let files: string[];
          try {
            files = await readdir(path.join(root, dir, owner));
          } catch {
            continue;
          }
          for (const file of files) {
            const key = `${dir}/${owner}/${file}`;
            if (!isScreenshotObjectKey(key) || !key.startsWith(prefix)) continue;
            const info = await stat(path.join(root, key)).catch(() => undefined);
            if (info) yield { key, lastModified: info.mtime };
          }
        }
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// S3-compatible store

/**
 * Reads presigned with the AWS SDK; `clock` dates the signatures (so tests can move time). Uploads
 * come to the server's own signed PUT route (`signer`), which writes the object.
 */
export function createS3Storage(
  s3: S3Config,
  clock: Clock,
  readUrlSeconds: number,
  exportOptions: { mode: Config['mode']; exportsDirectory: string; signer: UrlSigner },
): ScreenshotStorage {
  const client = new S3Client({
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.endpoint !== undefined,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    // S3-compatible stores do not all read the SDK's default aws-chunked upload with a trailing
    // checksum (s3rver keeps the chunk framing in the object): a streamed export ZIP goes up plain,
    // with its Content-Length, unless the operation requires a checksum.
    ...(s3.endpoint === undefined ? {} : { requestChecksumCalculation: 'WHEN_REQUIRED' as const }),
  });
  const imageOrigin = s3.endpoint
    ? new URL(s3.endpoint).origin
    : `https://${s3.bucket}.s3.${s3.region}.amazonaws.com`;

  const exportKey = (id: string) => exportObjectKey(exportOptions.mode, id);
  return {
    kind: 's3',
    imageOrigin,
    exports: {
      workDirectory: path.resolve(exportOptions.exportsDirectory),
      async save(exportId, file) {
        const Key = exportKey(exportId);
        const { size } = await stat(file);
        try {
          await client.send(
            new PutObjectCommand({
              Bucket: s3.bucket,
              Key,
              Body: createReadStream(file),
              ContentLength: size,
              ContentType: EXPORT_CONTENT_TYPE,
            }),
          );
        } finally {
          await rm(file, { force: true });
        }
        return Key;
      },
      async download(exportId, { until, fileName }) {
        const Key = exportKey(exportId);
        try {
          await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key }));
        } catch (error) {
          const { name, $metadata } = error as {
            name?: string;
            $metadata?: { httpStatusCode?: number };
          };
          if (name === 'NotFound' || $metadata?.httpStatusCode === 404) return null;
          throw error;
        }
        const left = Math.floor((until.getTime() - clock.now().getTime()) / 1000);
        if (left <= 0) return null;
        const redirect = await getSignedUrl(
          client,
          new GetObjectCommand({
            Bucket: s3.bucket,
            Key,
            ResponseContentType: EXPORT_CONTENT_TYPE,
            ResponseContentDisposition: `attachment; filename="${fileName}"`,
            ResponseCacheControl: 'private, no-store',
          }),
          { expiresIn: Math.min(EXPORT_REDIRECT_URL_SECONDS, left), signingDate: clock.now() },
        );
        return { redirect };
      },
      async remove(exportIds) {
        for (let start = 0; start < exportIds.length; start += 1000) {
          const chunk = exportIds.slice(start, start + 1000);
          await client.send(
            new DeleteObjectsCommand({
              Bucket: s3.bucket,
              Delete: { Objects: chunk.map((id) => ({ Key: exportKey(id) })), Quiet: true },
            }),
          );
        }
      },
    },
    async uploadUrl(key) {
      return exportOptions.signer.signedUrl('PUT', key, UPLOAD_URL_SECONDS);
    },
    verify: exportOptions.signer.verify,
    async write(key, bytes) {
      await client.send(
        new PutObjectCommand({
          Bucket: s3.bucket,
          Key: key,
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: SCREENSHOT_CONTENT_TYPE,
        }),
      );
    },
    readUrl(key) {
      return getSignedUrl(client, new GetObjectCommand({ Bucket: s3.bucket, Key: key }), {
        expiresIn: readUrlSeconds,
        signingDate: clock.now(),
      });
    },
    async read(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
        return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async remove(keys) {
      for (let start = 0; start < keys.length; start += 1000) {
        const chunk = keys.slice(start, start + 1000);
        await client.send(
          new DeleteObjectsCommand({
            Bucket: s3.bucket,
            Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key && isScreenshotObjectKey(object.Key)) {
            yield { key: object.Key, lastModified: object.LastModified ?? new Date(0) };
          }
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
