import { toDbBool, toDbTime } from '../src/db/values.ts';
import { hashToken, newToken } from '../src/services/tokens.ts';
import { addChild, addComputerUser, addMacToken } from './fixtures.ts';
import type { TestServer } from './harness.ts';

// Shared by the activity test files: a child with a Mac, rows written straight into the database at
// chosen times, and requests to the signed screenshot URLs.

/** Smallest valid JPEG (SOI … EOI); enough for the store, which checks the SOI marker. */
export const TINY_JPEG = Buffer.from(
  'ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e333432ffc0000b080001000101011100ffc4001f0000010501010101010100000000000000000102030405060708090a0bffda0008010100003f00d2cf20ffd9',
  'hex',
);

export async function childWithMac(server: TestServer, parentId: string, name = 'Sam') {
  const childId = await addChild(server, parentId, { name });
  const { computerUserId } = await addComputerUser(server, parentId, childId);
  const token = await addMacToken(server, childId, computerUserId);
  return { childId, computerUserId, token };
}

/** An iPad of the child (a new child unless `childId` is given), with its device token. */
export async function childWithIpad(
  server: TestServer,
  parentId: string,
  options: { name?: string; childId?: string } = {},
) {
  const childId = options.childId ?? (await addChild(server, parentId, { name: options.name }));
  const deviceId = newToken();
  const token = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('ios_devices')
    .values({
      id: deviceId,
      child_id: childId,
      vendor_id: newToken(),
      device_type: 'iPad',
      app_version: '1.5.0',
      ios_version: '18.1',
      created_at: now,
      updated_at: now,
    })
    .execute();
  await server.db
    .insertInto('ios_app_tokens')
    .values({
      id: newToken(),
      token_hash: hashToken(token),
      device_id: deviceId,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { childId, deviceId, token };
}

export interface RowExtra {
  deletedAt?: string;
  flagged?: string;
  filterSuspended?: boolean;
}

export interface ShotExtra extends RowExtra {
  objectKey?: string;
  /** A row whose image never came (its upload URL expired at `uploadExpiresAt`); else stored. */
  awaitingUpload?: { uploadExpiresAt: string };
}

export async function insertLine(
  server: TestServer,
  computerUserId: string,
  createdAt: string,
  appName: string,
  line: string,
  extra: RowExtra = {},
) {
  const id = newToken();
  await server.db
    .insertInto('keystroke_lines')
    .values({
      id,
      computer_user_id: computerUserId,
      app_name: appName,
      line,
      filter_suspended: toDbBool(extra.filterSuspended ?? false),
      flagged: extra.flagged ?? null,
      created_at: toDbTime(new Date(createdAt)),
      deleted_at: extra.deletedAt ?? null,
    })
    .execute();
  return id;
}

/** A screenshot of a Mac, its image stored (unless `awaitingUpload`). */
export async function insertShot(
  server: TestServer,
  computerUserId: string,
  createdAt: string,
  extra: ShotExtra = {},
) {
  return insertScreenshotRow(server, { computerUserId }, createdAt, extra);
}

/** A screenshot of an iPhone or iPad, its image stored (unless `awaitingUpload`). */
export async function insertIosShot(
  server: TestServer,
  iosDeviceId: string,
  createdAt: string,
  extra: ShotExtra = {},
) {
  return insertScreenshotRow(server, { iosDeviceId }, createdAt, {
    filterSuspended: true,
    ...extra,
  });
}

async function insertScreenshotRow(
  server: TestServer,
  owner: { computerUserId: string } | { iosDeviceId: string },
  createdAt: string,
  extra: ShotExtra,
) {
  const id = newToken();
  const ownerId = 'computerUserId' in owner ? owner.computerUserId : owner.iosDeviceId;
  const stored = extra.awaitingUpload === undefined ? toDbTime(new Date(createdAt)) : null;
  await server.db
    .insertInto('screenshots')
    .values({
      id,
      computer_user_id: 'computerUserId' in owner ? owner.computerUserId : null,
      ios_device_id: 'iosDeviceId' in owner ? owner.iosDeviceId : null,
      object_key:
        extra.objectKey ??
        `test-screenshots/${ownerId}/${Math.floor(Date.parse(createdAt) / 1000)}--${id}.jpg`,
      width: 1280,
      height: 800,
      filter_suspended: toDbBool(extra.filterSuspended ?? false),
      flagged: extra.flagged ?? null,
      created_at: toDbTime(new Date(createdAt)),
      deleted_at: extra.deletedAt ?? null,
      upload_expires_at: extra.awaitingUpload?.uploadExpiresAt ?? null,
      upload_started_at: stored,
      uploaded_at: stored,
    })
    .execute();
  return id;
}

/** A request to one of the server's own signed screenshot URLs (path and query of `url`). */
export async function requestSigned(
  server: TestServer,
  method: 'GET' | 'PUT',
  url: string,
  body?: Buffer,
  contentType = 'image/jpeg',
) {
  const parsed = new URL(url);
  const response = await server.app.inject({
    method,
    url: `${parsed.pathname}${parsed.search}`,
    ...(body === undefined ? {} : { payload: body, headers: { 'content-type': contentType } }),
  });
  let json: unknown;
  try {
    json = JSON.parse(response.body);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, raw: response.rawPayload, json, headers: response.headers };
}

/** An error body without its per-request id, to compare two refusals. */
export function withoutRequestId(body: Record<string, unknown>) {
  const { requestId: _ignored, ...rest } = body;
  return rest;
}
