import type { ServerMessage } from '@keyward/contract/device';
import type { SharedKey } from '@keyward/contract/shared';
import { toDbBool, toDbTime } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import type { TestServer } from './harness.ts';

// Fixtures for the keychains tests: rows the keychain operations hang off (children, Macs), built
// directly in the database so these tests depend only on the operations under test.

export interface Parent {
  adminId: string;
  token: string;
  email: string;
}

export const website = (domain: string): SharedKey => ({
  type: 'anySubdomain',
  domain,
  scope: { type: 'webBrowsers' },
});

export async function addChild(server: TestServer, parentId: string, name = 'Sam') {
  const id = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('children')
    .values({
      id,
      parent_id: parentId,
      name,
      keylogging_enabled: toDbBool(false),
      screenshots_enabled: toDbBool(false),
      screenshots_resolution: 1000,
      screenshots_frequency: 120,
      show_suspension_activity: toDbBool(false),
      downtime: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** A Mac for the child: returns the computer-user id (the push target). */
export async function addMac(server: TestServer, parentId: string, childId: string) {
  const computerId = newToken();
  const computerUserId = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('computers')
    .values({
      id: computerId,
      parent_id: parentId,
      custom_name: null,
      model_identifier: 'MacBookAir10,1',
      serial_number: newToken(),
      filter_version: null,
      os_version: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await server.db
    .insertInto('computer_users')
    .values({
      id: computerUserId,
      child_id: childId,
      computer_id: computerId,
      username: 'kid',
      full_username: 'Kid',
      numeric_id: 501,
      is_admin: toDbBool(false),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return computerUserId;
}

export async function assign(server: TestServer, childId: string, keychainId: string) {
  await server.db
    .insertInto('child_keychains')
    .values({
      id: newToken(),
      child_id: childId,
      keychain_id: keychainId,
      schedule: null,
      created_at: toDbTime(server.clock.now()),
    })
    .execute();
}

export async function createKeychain(server: TestServer, parent: Parent, name = 'School') {
  const id = newToken();
  const result = await server.call(
    'SaveKeychain',
    { isNew: true, id, name, description: 'For school' },
    { token: parent.token },
  );
  if (result.status !== 200) throw new Error(`SaveKeychain: ${JSON.stringify(result.body)}`);
  return id;
}

export async function createKey(
  server: TestServer,
  parent: Parent,
  keychainId: string,
  key: SharedKey = website('example.com'),
  extra: { comment?: string; expiration?: string } = {},
) {
  const id = newToken();
  const result = await server.call(
    'SaveKey',
    { isNew: true, id, keychainId, key, ...extra },
    { token: parent.token },
  );
  if (result.status !== 200) throw new Error(`SaveKey: ${JSON.stringify(result.body)}`);
  return id;
}

/** Collects the messages pushed to these computer users. */
export function recordPushes(server: TestServer, computerUserIds: string[]) {
  const received: { computerUserId: string; message: ServerMessage }[] = [];
  const unsubscribes = computerUserIds.map((computerUserId) =>
    server.app.push.subscribe(computerUserId, (message) =>
      received.push({ computerUserId, message }),
    ),
  );
  return {
    received,
    to: (computerUserId: string) =>
      received.filter((entry) => entry.computerUserId === computerUserId).map((e) => e.message),
    stop: () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}

export async function keychainRow(server: TestServer, id: string) {
  return server.db.selectFrom('keychains').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function keyRow(server: TestServer, id: string) {
  return server.db.selectFrom('keys').selectAll().where('id', '=', id).executeTakeFirst();
}
