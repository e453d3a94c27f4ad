import type { SharedKey } from '@keyward/contract/shared';
import { validateSharedKey } from '@keyward/domain/keys';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  CATALOGUE_PARENT_EMAIL,
  CATALOGUE_PARENT_ID,
  PUBLIC_KEYCHAINS as FIRST_KEYCHAINS,
} from '../src/db/migrations/0003_public_keychains.ts';
import { ESSENTIALS_KEYCHAINS } from '../src/db/migrations/0025_dns_devices.ts';
import { fromDbBool, fromDbJson } from '../src/db/values.ts';
import { createTestServer, type TestServer } from './harness.ts';

// migration 0003's keychains, and issue 33's essentials (migration 0025)
const PUBLIC_KEYCHAINS = [...FIRST_KEYCHAINS, ...ESSENTIALS_KEYCHAINS];

describe('the public keychain catalogue (data)', () => {
  test('has at least 8 keychains with distinct ids and names, two with a warning', () => {
    expect(PUBLIC_KEYCHAINS.length).toBeGreaterThanOrEqual(8);
    expect(new Set(PUBLIC_KEYCHAINS.map((k) => k.id)).size).toBe(PUBLIC_KEYCHAINS.length);
    expect(new Set(PUBLIC_KEYCHAINS.map((k) => k.name)).size).toBe(PUBLIC_KEYCHAINS.length);
    expect(PUBLIC_KEYCHAINS.filter((k) => k.warning).map((k) => k.name)).toEqual([
      'Microsoft 365 for school',
      'Android essentials',
    ]);
  });

  test.each(
    PUBLIC_KEYCHAINS.flatMap((keychain) =>
      keychain.keys.map((entry) => [keychain.name, entry.key] as [string, SharedKey]),
    ),
  )('%s: %j passes validateSharedKey', (_name, key) => {
    expect(validateSharedKey(key)).toBeNull();
  });
});

describe('the public keychain catalogue (database)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => server.close());

  test('is seeded as public keychains of the catalogue parent', async () => {
    const rows = await server.db
      .selectFrom('keychains')
      .selectAll()
      .where('parent_id', '=', CATALOGUE_PARENT_ID)
      .execute();
    expect(rows.map((r) => r.id).sort()).toEqual(PUBLIC_KEYCHAINS.map((k) => k.id).sort());
    for (const row of rows) expect(fromDbBool(row.is_public)).toBe(true);

    const keys = await server.db
      .selectFrom('keys')
      .select(['key', 'deleted_at'])
      .where(
        'keychain_id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    expect(keys).toHaveLength(PUBLIC_KEYCHAINS.reduce((n, k) => n + k.keys.length, 0));
    for (const row of keys) {
      expect(row.deleted_at).toBeNull();
      expect(validateSharedKey(fromDbJson<SharedKey>(row.key))).toBeNull();
    }
  });

  test('the catalogue parent is complimentary and can never log in', async () => {
    const parent = await server.db
      .selectFrom('parents')
      .selectAll()
      .where('id', '=', CATALOGUE_PARENT_ID)
      .executeTakeFirstOrThrow();
    expect(parent.subscription_status).toBe('complimentary');
    expect(parent.email).toBe(CATALOGUE_PARENT_EMAIL);
    for (const password of ['disabled', '', 'password', parent.password_hash]) {
      const result = await server.call('Login', { email: CATALOGUE_PARENT_EMAIL, password });
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({ type: 'unauthorized', id: '1e087878' });
    }
    const sessions = await server.db
      .selectFrom('dashboard_sessions')
      .select('id')
      .where('parent_id', '=', CATALOGUE_PARENT_ID)
      .execute();
    expect(sessions).toEqual([]);
  });

  test('Google Workspace only opens exact Google domains (google.com is a large shared host)', () => {
    const google = FIRST_KEYCHAINS.find((k) => k.name === 'Google Workspace for Education')!;
    for (const { key } of google.keys) {
      if (key.type === 'anySubdomain') expect(key.domain.endsWith('google.com')).toBe(false);
    }
    expect(google.keys.map((k) => k.key)).toContainEqual({
      type: 'domain',
      domain: 'docs.google.com',
      scope: { type: 'webBrowsers' },
    });
  });
});
