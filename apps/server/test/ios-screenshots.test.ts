import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { fromDbBool } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import { requestSigned, TINY_JPEG } from './activity-helpers.ts';
import { addChild, addConnectionCode, serverWithParents } from './fixtures.ts';

// ScreenshotUploadUrl (server-behaviour §5, §7.1): an iPhone or iPad asks for a signed upload URL
// for a screenshot it took at `createdAt` (seconds since 2001-01-01, as the app's JSONEncoder
// writes a Date); the screenshot is stored for the device, the PUT stores the JPEG.

const { server, alice } = await serverWithParents();

/** Seconds between 1970 and 2001: the app's dates count from 2001. */
const REFERENCE = 978_307_200;

async function connectIpad() {
  const childId = await addChild(server, alice.adminId);
  const code = await addConnectionCode(server, childId);
  const result = await server.call(
    'ConnectDevice',
    {
      verificationCode: code,
      vendorId: newToken().toUpperCase(),
      deviceType: 'iPad',
      appVersion: '1.5.0',
      iosVersion: '18.1',
    },
    { namespace: 'ios-app' },
  );
  expect(result.status).toBe(200);
  return { childId, token: result.body.token as string, deviceId: result.body.deviceId as string };
}

const ask = (token: string | undefined, input: unknown) =>
  server.call('ScreenshotUploadUrl', input, { namespace: 'ios-app', token });

describe('ScreenshotUploadUrl', () => {
  test('the row is the device’s from the start, at the app’s capture time; the JPEG goes up', async () => {
    const ipad = await connectIpad();
    // 2025-01-15T11:58:00.250Z as the app sends it
    const createdAt = 1_736_942_280.25 - REFERENCE;
    const result = await ask(ipad.token, { width: 1170, height: 2532, createdAt });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const { uploadUrl } = result.body as { uploadUrl: string };

    const rows = await server.db
      .selectFrom('screenshots')
      .selectAll()
      .where('ios_device_id', '=', ipad.deviceId)
      .execute();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.computer_user_id).toBeNull();
    expect(row.created_at).toBe('2025-01-15T11:58:00.250Z');
    expect([row.width, row.height]).toEqual([1170, 2532]);
    // the app takes screenshots only while its filter is suspended
    expect(fromDbBool(row.filter_suspended)).toBe(true);
    expect(row.object_key).toBe(`test-screenshots/${ipad.deviceId}/1736942280--${row.id}.jpg`);

    expect(uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\/screenshots\/test-screenshots\//);
    expect(new URL(uploadUrl).searchParams.get('expires')).toBe(
      String(Math.floor(server.clock.now().getTime() / 1000) + 90),
    );
    const put = await requestSigned(server, 'PUT', uploadUrl, TINY_JPEG);
    expect(put.status).toBe(200);
    expect(existsSync(path.join(server.config.dataDir, 'screenshots', row.object_key))).toBe(true);
  });

  test('the date must be the app’s number; sizes are whole, positive and bounded', async () => {
    const ipad = await connectIpad();
    for (const input of [
      { width: 10, height: 10 },
      { width: 10, height: 10, createdAt: '2025-01-15T11:58:00Z' },
      { width: 10.5, height: 10, createdAt: 0 },
      { width: 0, height: 10, createdAt: 0 },
      { width: 10, height: 10, createdAt: 1e12 },
    ]) {
      const result = await ask(ipad.token, input);
      expect(result.status, JSON.stringify(input)).toBe(400);
    }
    const huge = await ask(ipad.token, { width: 100_001, height: 10, createdAt: 0 });
    expect(huge.status).toBe(400);
    expect(huge.body.id).toBe('e5a0c7d3');
    const rows = await server.db
      .selectFrom('screenshots')
      .select('id')
      .where('ios_device_id', '=', ipad.deviceId)
      .execute();
    expect(rows).toEqual([]);
  });

  test('without a valid device token: 401, nothing stored', async () => {
    const before = await server.db.selectFrom('screenshots').select('id').execute();
    for (const token of [undefined, newToken()]) {
      const result = await ask(token, { width: 10, height: 10, createdAt: 0 });
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ id: '3aecf9fd', appTag: 'iosDeviceTokenNotFound' });
    }
    expect(await server.db.selectFrom('screenshots').select('id').execute()).toEqual(before);
  });
});
