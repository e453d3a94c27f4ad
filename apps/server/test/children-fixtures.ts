import type { FilterState } from '@keyward/contract/device';
import type { RuleSchedule } from '@keyward/contract/shared';
import { toDbBool, toDbJson, toDbTime } from '../src/db/values.ts';
import { hashToken, newToken } from '../src/services/tokens.ts';
import type { TestServer } from './harness.ts';

// Fixtures for the children and computers tests: computers, computer users, tokens and presence
// written straight into the database (connecting is the device API's job, tested elsewhere).

export interface Parent {
  adminId: string;
  token: string;
}

export const AFTER_SCHOOL: RuleSchedule = {
  mode: 'active',
  days: {
    sunday: false,
    monday: true,
    tuesday: true,
    wednesday: true,
    thursday: true,
    friday: true,
    saturday: false,
  },
  window: { start: { hour: 15, minute: 0 }, end: { hour: 18, minute: 30 } },
};

/** A SaveUser input for a new child with the spec's defaults. */
export function newChildInput(overrides: Record<string, unknown> = {}) {
  return {
    id: newToken(),
    isNew: true,
    name: 'Sam',
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 120,
    showSuspensionActivity: false,
    keychains: [],
    ...overrides,
  };
}

export async function createChild(
  server: TestServer,
  parent: Parent,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const input = newChildInput(overrides);
  const result = await server.call('SaveUser', input, { token: parent.token });
  if (result.status !== 200) throw new Error(`SaveUser: ${JSON.stringify(result.body)}`);
  return input.id;
}

export interface ComputerOptions {
  computerId?: string;
  modelIdentifier?: string;
  serialNumber?: string;
  customName?: string;
  appVersion?: string;
  numericId?: number;
}

/** A computer (new unless computerId is given) with one computer user for the child. */
export async function addComputerUser(
  server: TestServer,
  parentId: string,
  childId: string,
  options: ComputerOptions = {},
) {
  const now = toDbTime(server.clock.now());
  const computerId = options.computerId ?? newToken();
  if (options.computerId === undefined) {
    await server.db
      .insertInto('computers')
      .values({
        id: computerId,
        parent_id: parentId,
        custom_name: options.customName ?? null,
        model_identifier: options.modelIdentifier ?? 'MacBookPro16,1',
        serial_number: options.serialNumber ?? `C02${newToken().slice(0, 8).toUpperCase()}`,
        filter_version: null,
        os_version: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  const computerUserId = newToken();
  await server.db
    .insertInto('computer_users')
    .values({
      id: computerUserId,
      child_id: childId,
      computer_id: computerId,
      app_version: options.appVersion ?? '2.4.0',
      username: 'kid',
      full_username: 'Kid',
      numeric_id: options.numericId ?? 501,
      is_admin: toDbBool(false),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { computerId, computerUserId };
}

/** A device token for the computer user, stored hashed as ConnectUser stores it. */
export async function addMacToken(server: TestServer, childId: string, computerUserId: string) {
  const token = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('mac_app_tokens')
    .values({
      id: newToken(),
      token_hash: hashToken(token),
      child_id: childId,
      computer_user_id: computerUserId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .execute();
  return token;
}

/** The computer user was heard from now, reporting this filter state. */
export async function reportState(server: TestServer, computerUserId: string, state?: FilterState) {
  const values = {
    last_seen_at: toDbTime(server.clock.now()),
    filter_state: state ? toDbJson(state) : null,
  };
  await server.db
    .insertInto('device_presence')
    .values({ computer_user_id: computerUserId, connection_id: null, instance_id: null, ...values })
    .onConflict((oc) => oc.column('computer_user_id').doUpdateSet(values))
    .execute();
}

export async function securityEvents(server: TestServer, parentId: string, event?: string) {
  let query = server.db
    .selectFrom('security_events')
    .select(['event', 'detail', 'ip_address', 'computer_user_id'])
    .where('parent_id', '=', parentId)
    .orderBy('created_at');
  if (event !== undefined) query = query.where('event', '=', event);
  return query.execute();
}

/** Collects the messages pushed to these computer users. */
export function recordPushes(server: TestServer, computerUserIds: string[]) {
  const received: { computerUserId: string; case: string }[] = [];
  const unsubscribes = computerUserIds.map((computerUserId) =>
    server.app.push.subscribe(computerUserId, (message) =>
      received.push({ computerUserId, case: message.case }),
    ),
  );
  return {
    received,
    stop: () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}

export async function childRow(server: TestServer, id: string) {
  return server.db.selectFrom('children').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function createKeychainRow(
  server: TestServer,
  parentId: string,
  options: { name?: string; isPublic?: boolean } = {},
) {
  const id = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('keychains')
    .values({
      id,
      parent_id: parentId,
      name: options.name ?? 'School',
      description: null,
      warning: null,
      is_public: toDbBool(options.isPublic ?? false),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function addKey(
  server: TestServer,
  keychainId: string,
  expiresAt: Date | null = null,
) {
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('keys')
    .values({
      id: newToken(),
      keychain_id: keychainId,
      key: toDbJson({
        type: 'anySubdomain',
        domain: 'example.com',
        scope: { type: 'webBrowsers' },
      }),
      comment: null,
      created_at: now,
      updated_at: now,
      deleted_at: expiresAt ? toDbTime(expiresAt) : null,
    })
    .execute();
}
