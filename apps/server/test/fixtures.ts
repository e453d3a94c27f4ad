import type { FilterState, ServerMessage } from '@keyward/contract/device';
import type { PlainTimeWindow, RuleSchedule, SharedKey } from '@keyward/contract/shared';
import { afterAll } from 'vitest';
import { addMs, toDbBool, toDbJson, toDbTime } from '../src/db/values.ts';
import { CONNECTION_CODES } from '../src/pairql/rate-limit.ts';
import {
  createTokenService,
  hashToken,
  newSixDigitCode,
  newToken,
} from '../src/services/tokens.ts';
import { type CallResult, createTestServer, type TestServer } from './harness.ts';

// Shared test fixtures. `create…` goes through the dashboard operation (SaveUser, SaveKeychain,
// SaveKey); `add…` writes the rows straight into the database, so a test depends only on the
// operation it is about.

export interface Parent {
  adminId: string;
  token: string;
  email: string;
}

/**
 * Most files test one parent against another: a fresh server with two signed-up parents,
 * closed after the file's tests. Call it with top-level await.
 */
export async function serverWithParents() {
  const server = await createTestServer();
  afterAll(() => server.close());
  const alice = await server.signUpVerifiedParent();
  const bob = await server.signUpVerifiedParent();
  return { server, alice, bob };
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

export const website = (domain: string): SharedKey => ({
  type: 'anySubdomain',
  domain,
  scope: { type: 'webBrowsers' },
});

// ---------------------------------------------------------------------------
// Children

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
  parent: Pick<Parent, 'token'>,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const input = newChildInput(overrides);
  const result = await server.call('SaveUser', input, { token: parent.token });
  if (result.status !== 200) throw new Error(`SaveUser: ${JSON.stringify(result.body)}`);
  return input.id;
}

export interface ChildSettings {
  name?: string;
  keyloggingEnabled?: boolean;
  screenshotsEnabled?: boolean;
  screenshotsResolution?: number;
  screenshotsFrequency?: number;
  downtime?: PlainTimeWindow;
}

export async function addChild(server: TestServer, parentId: string, settings: ChildSettings = {}) {
  const id = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('children')
    .values({
      id,
      parent_id: parentId,
      name: settings.name ?? 'Sam',
      keylogging_enabled: toDbBool(settings.keyloggingEnabled ?? false),
      screenshots_enabled: toDbBool(settings.screenshotsEnabled ?? false),
      screenshots_resolution: settings.screenshotsResolution ?? 1000,
      screenshots_frequency: settings.screenshotsFrequency ?? 120,
      show_suspension_activity: toDbBool(false),
      downtime: settings.downtime ? toDbJson(settings.downtime) : null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function blockApp(
  server: TestServer,
  childId: string,
  identifier: string,
  schedule?: RuleSchedule,
) {
  const id = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('blocked_mac_apps')
    .values({
      id,
      child_id: childId,
      identifier,
      schedule: schedule ? toDbJson(schedule) : null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

// ---------------------------------------------------------------------------
// Computers (connecting one for real is ConnectUser's job: see connectedMac below)

export interface ComputerOptions {
  computerId?: string;
  modelIdentifier?: string;
  serialNumber?: string;
  customName?: string;
  appVersion?: string;
  numericId?: number;
  isAdmin?: boolean;
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
      is_admin: toDbBool(options.isAdmin ?? false),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return { computerId, computerUserId };
}

/** A child (database defaults unless named) with a computer of its own. */
export async function addChildWithComputer(
  server: TestServer,
  parentId: string,
  options: { name?: string; isAdmin?: boolean } = {},
) {
  const childId = await addChild(server, parentId, { name: options.name });
  const computer = await addComputerUser(server, parentId, childId, { isAdmin: options.isAdmin });
  return { childId, ...computer };
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

// ---------------------------------------------------------------------------
// Keychains and keys

export async function createKeychain(
  server: TestServer,
  parent: Pick<Parent, 'token'>,
  name = 'School',
) {
  const id = newToken();
  const result = await server.call(
    'SaveKeychain',
    { isNew: true, id, name, description: 'For school' },
    { token: parent.token },
  );
  if (result.status !== 200) throw new Error(`SaveKeychain: ${JSON.stringify(result.body)}`);
  return id;
}

export async function addKeychain(
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

export async function createKey(
  server: TestServer,
  parent: Pick<Parent, 'token'>,
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

/** A key stored as SaveKey stores it: an expiring key has its expiry in deleted_at. */
export async function addKey(
  server: TestServer,
  keychainId: string,
  key: SharedKey = website('example.com'),
  expiresAt: Date | null = null,
) {
  const id = newToken();
  const now = toDbTime(server.clock.now());
  await server.db
    .insertInto('keys')
    .values({
      id,
      keychain_id: keychainId,
      key: toDbJson(key),
      comment: null,
      created_at: now,
      updated_at: now,
      deleted_at: expiresAt ? toDbTime(expiresAt) : null,
    })
    .execute();
  return id;
}

/** The child holds the keychain (always, unless a schedule is given). */
export async function assign(
  server: TestServer,
  childId: string,
  keychainId: string,
  schedule?: RuleSchedule,
) {
  await server.db
    .insertInto('child_keychains')
    .values({
      id: newToken(),
      child_id: childId,
      keychain_id: keychainId,
      schedule: schedule ? toDbJson(schedule) : null,
      created_at: toDbTime(server.clock.now()),
    })
    .execute();
}

// ---------------------------------------------------------------------------
// The device API: connection codes and connecting a Mac

/** A connection code as CreatePendingAppConnection stores it: HMAC-ed, valid 2 days. */
export async function addConnectionCode(server: TestServer, childId: string): Promise<number> {
  const code = newSixDigitCode();
  const now = server.clock.now();
  await server.db
    .insertInto('connection_codes')
    .values({
      id: newToken(),
      code_hash: createTokenService(server.config).hmac(code),
      child_id: childId,
      expires_at: toDbTime(addMs(now, CONNECTION_CODES.lifetimeSeconds * 1000)),
      created_at: toDbTime(now),
    })
    .execute();
  return code;
}

export interface MacAccount {
  serialNumber: string;
  numericId: number;
  username?: string;
  fullUsername?: string;
  isAdmin?: boolean;
  osVersion?: string;
  appVersion?: string;
}

export function newMac(overrides: Partial<MacAccount> = {}): MacAccount {
  return {
    serialNumber: `C02${newToken().slice(0, 8).toUpperCase()}`,
    numericId: 501,
    ...overrides,
  };
}

export function connectUser(
  server: TestServer,
  code: number,
  mac: MacAccount,
  headers: Record<string, string> = {},
): Promise<CallResult> {
  return server.call(
    'ConnectUser',
    {
      verificationCode: code,
      appVersion: mac.appVersion ?? '2.4.0',
      modelIdentifier: 'MacBookPro16,1',
      username: mac.username ?? 'sam',
      fullUsername: mac.fullUsername ?? 'Sam Smith',
      numericId: mac.numericId,
      serialNumber: mac.serialNumber,
      osVersion: mac.osVersion ?? '14.5.0',
      isAdmin: mac.isAdmin ?? false,
    },
    { namespace: 'macos-app', headers },
  );
}

/** A child with a Mac connected through ConnectUser: its token and computer-user id. */
export async function connectedMac(
  server: TestServer,
  parentId: string,
  options: { childId?: string; mac?: MacAccount } = {},
) {
  const childId = options.childId ?? (await addChild(server, parentId));
  const mac = options.mac ?? newMac();
  const result = await connectUser(server, await addConnectionCode(server, childId), mac);
  if (result.status !== 200) throw new Error(`ConnectUser: ${JSON.stringify(result.body)}`);
  return {
    childId,
    mac,
    token: result.body.token as string,
    computerUserId: result.body.deviceId as string,
  };
}

export function deviceCall(server: TestServer, op: string, token: string, input?: unknown) {
  return server.call(op, input, { namespace: 'macos-app', token });
}

// ---------------------------------------------------------------------------
// Reading back

export async function childRow(server: TestServer, id: string) {
  return server.db.selectFrom('children').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function keychainRow(server: TestServer, id: string) {
  return server.db.selectFrom('keychains').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function keyRow(server: TestServer, id: string) {
  return server.db.selectFrom('keys').selectAll().where('id', '=', id).executeTakeFirst();
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

/**
 * Collects the messages pushed to these computer users: `received` in order as
 * { computerUserId, case }, `to(id)` the whole messages one computer user got.
 */
export function recordPushes(server: TestServer, computerUserIds: string[]) {
  const received: { computerUserId: string; case: ServerMessage['case'] }[] = [];
  const messages = new Map<string, ServerMessage[]>(computerUserIds.map((id) => [id, []]));
  const unsubscribes = computerUserIds.map((computerUserId) =>
    server.app.push.subscribe(computerUserId, (message) => {
      received.push({ computerUserId, case: message.case });
      messages.get(computerUserId)?.push(message);
    }),
  );
  return {
    received,
    to: (computerUserId: string) => messages.get(computerUserId) ?? [],
    stop: () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}

/**
 * Issue 12: the owner invites a co-parent through InviteParent and the invitee accepts from the
 * emailed link (AcceptParentInvite); returns the co-parent's session.
 */
export async function inviteCoParent(
  server: TestServer,
  owner: Parent,
  email = `co-${newToken().slice(0, 8)}@example.com`,
  password = 'co-parent password',
) {
  const invited = await server.call('InviteParent', { email }, { token: owner.token });
  if (invited.status !== 200) throw new Error(`InviteParent: ${JSON.stringify(invited.body)}`);
  const link = server.linkIn(server.lastEmailTo(email, 'parent-invite'), '/parent-invite/');
  const inviteToken = link.pathname.split('/').at(-1)!;
  const accepted = await server.call('AcceptParentInvite', { token: inviteToken, password });
  if (accepted.status !== 200)
    throw new Error(`AcceptParentInvite: ${JSON.stringify(accepted.body)}`);
  const row = await server.db
    .selectFrom('co_parents')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return {
    adminId: accepted.body.adminId as string,
    token: accepted.body.token as string,
    email,
    password,
    personId: row.id,
  };
}
