import type { PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import { addMs, DAY, toDbBool, toDbJson, toDbTime } from '../src/db/values.ts';
import { createTokenService, newSixDigitCode, newToken } from '../src/services/tokens.ts';
import type { CallResult, TestServer } from './harness.ts';

// Fixtures for the device-API tests: children and connection codes built directly in the
// database (the dashboard operations that create them are tested elsewhere).

export const WEEKDAYS_AFTER_SCHOOL: RuleSchedule = {
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
      expires_at: toDbTime(addMs(now, 2 * DAY)),
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

/** A child with a connected Mac: its token and computer-user id. */
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
