import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  type DashboardInput,
  type DashboardOperation,
  dashboard,
  dashboardOperationNames,
} from '@keyward/contract/dashboard';
import { macosApp, macosAppOperationNames } from '@keyward/contract/device';
import { iosApp, iosAppOperationNames } from '@keyward/contract/ios';
import { ERROR_IDS } from '@keyward/contract/constants';
import { HTTP_STATUS_OF, ServerPqlError } from '@keyward/contract/errors';
import { DeletableEntityType, type SharedKey } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { storedBucket } from '../src/pairql/rate-limit.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  addConnectionCode,
  addKey,
  addKeychain,
  assign,
  blockApp,
  connectedMac,
  connectUser,
  deviceCall,
  inviteCoParent,
  newChildInput,
  newMac,
  type Parent,
  securityEvents,
  serverWithParents,
  website,
} from './fixtures.ts';
import type { CallResult } from './harness.ts';

// The whole surface against bad input and foreign ids (server-behaviour §0.3, §10.3; wire-contract
// §2.3, §3.6): every operation that has a resolver file, with an empty body, bodies of the wrong
// JSON type, well-formed inputs whose ids are random, and the same inputs naming ANOTHER parent's
// real rows. Never a 500, always the contract's error body, and a foreign id answers exactly like a
// missing one and changes nothing.

const { server, alice, bob } = await serverWithParents();

const hasResolver = (folder: 'dashboard' | 'device', op: string) =>
  existsSync(new URL(`../src/operations/${folder}/${op}.ts`, import.meta.url));
const dashboardOps = dashboardOperationNames.filter((op) => hasResolver('dashboard', op));
const deviceOps = macosAppOperationNames.filter((op) => hasResolver('device', op));

/** Every non-200 answer has the contract's error shape and its type's HTTP status. */
function expectWellFormed(result: CallResult, label: string) {
  expect(result.status, `${label}: ${JSON.stringify(result.body)}`).toBeLessThan(500);
  if (result.status === 200) return;
  const parsed = ServerPqlError.safeParse(result.body);
  expect(parsed.success, `${label}: ${JSON.stringify(result.body)}`).toBe(true);
  const error = parsed.data!;
  expect(error.statusCode, label).toBe(result.status);
  const status = result.status === 429 ? HTTP_STATUS_OF.badRequest : result.status;
  expect(HTTP_STATUS_OF[error.type], label).toBe(status);
}

// Logout as the sweeping parent would end the session the rest of the file uses.
async function tokenFor(op: string, parent: Parent & { password: string }) {
  if (op !== 'Logout') return parent.token;
  const login = await server.call('Login', { email: parent.email, password: parent.password });
  expect(login.status).toBe(200);
  return login.body.token as string;
}

const WRONG_BODIES = ['[]', '"x"', '42', 'true', 'null', '{}', '[{"id":42}]'];

describe('every dashboard operation with a resolver, as a verified parent', () => {
  test('the sweep covers the implemented operations', () => {
    expect(dashboardOps.length).toBeGreaterThanOrEqual(20);
    expect(dashboardOps).toContain('SaveUser');
  });

  test.each(dashboardOps)('%s: empty body, malformed JSON, wrong JSON types', async (op) => {
    const def = dashboard[op];
    const bodies = ['', '{', ...WRONG_BODIES];
    for (const rawBody of bodies) {
      const token = await tokenFor(op, alice);
      const result = await server.call(op, undefined, { token, rawBody });
      const label = `${op} ${JSON.stringify(rawBody)}`;
      expectWellFormed(result, label);
      if (def.input === null) {
        // void operations ignore the body
        expect(result.status, label).toBe(200);
        continue;
      }
      if (rawBody === '') {
        expect(result.body.id, label).toBe('d1c8e0f4');
      } else if (rawBody === '{') {
        expect(result.body.id, label).toBe('4f2a9b61');
      } else if (!def.input.safeParse(JSON.parse(rawBody)).success) {
        expect([result.status, result.body.id], label).toEqual([400, '9e3b7c05']);
      }
    }
  });
});

// ---------------------------------------------------------------------------
// Inputs that carry ids

interface Ids {
  parent: string;
  child: string;
  computer: string;
  computerUser: string;
  keychain: string;
  key: string;
  blockedApp: string;
  unlockRequest: string;
  suspendFilterRequest: string;
  // rows the fixtures cannot make yet: always random
  other: () => string;
}

interface Expected {
  status: number;
  type?: string;
  body?: unknown;
}

type IdCase<Op extends DashboardOperation> = {
  input: DashboardInput<Op>;
  expected?: Expected;
};
type IdCases = { [Op in DashboardOperation]?: IdCase<Op>[] };

const NOT_AVAILABLE_YET = 'e5a7b3c1';
const NOT_FOUND: Expected = { status: 404, type: 'notFound' };
const RANGE = { start: '2024-03-06T05:00:00.000Z', end: '2024-03-07T04:59:59.999Z' };
const KEY: SharedKey = website('khanacademy.org');
const CHILD_SETTINGS = () => {
  const { id: _id, isNew: _isNew, ...settings } = newChildInput({ name: 'Sweep' });
  return settings;
};

/**
 * Well-formed inputs naming the given ids (and no own row), so each must be refused like a missing
 * row: notFound unless the contract documents another answer. Operations absent here carry no ids.
 */
function idCases(ids: Ids): IdCases {
  const o = ids.other;
  return {
    ChildActivitySummaries: [{ input: { childId: ids.child, jsTimezoneOffsetMinutes: 0 } }],
    // wire-contract §2.3: an unknown or foreign method answers like a wrong code
    ConfirmPendingNotificationMethod: [
      { input: { id: o(), code: 123456 }, expected: { status: 401, type: 'unauthorized' } },
    ],
    CreatePendingAppConnection: [{ input: { userId: ids.child } }],
    DecideFilterSuspensionRequest: [
      { input: { id: ids.suspendFilterRequest, decision: { case: 'rejected' } } },
    ],
    // server-behaviour §3.6: items that are not the parent's are silently skipped
    DeleteActivityItems_v2: [
      {
        input: { keystrokeLineIds: [o()], screenshotIds: [o()] },
        expected: { status: 200, body: { success: true } },
      },
    ],
    DeleteEntity_v2: DeletableEntityType.options.map((type) => ({
      input: {
        type,
        id:
          {
            child: ids.child,
            computerUser: ids.computerUser,
            key: ids.key,
            keychain: ids.keychain,
            parent: ids.parent,
          }[type as string] ?? o(),
      },
    })),
    FlagActivityItems: [{ input: [o(), o()] }],
    GetAdminKeychain: [{ input: ids.keychain }],
    GetDevice: [{ input: ids.computer }],
    GetIOSDevice: [{ input: o() }],
    GetSuspendFilterRequest: [{ input: ids.suspendFilterRequest }],
    GetUnlockRequest: [{ input: ids.unlockRequest }],
    GetUser: [{ input: ids.child }],
    GetUserUnlockRequests: [{ input: ids.child }],
    GetUnlockRequestsPage: [{ input: { childId: ids.child } }],
    // issue 12: filters naming another family's rows match nothing
    GetAuditLog: [
      {
        input: { personId: ids.parent, childId: ids.child },
        expected: { status: 200, body: { entries: [] } },
      },
    ],
    RemoveParent: [{ input: { id: ids.parent } }],
    // a token is no parent's row: an unknown one is unauthorized (tag magicLinkTokenNotFound)
    LoginMagicLink: [{ input: { token: o() }, expected: { status: 401, type: 'unauthorized' } }],
    // server-behaviour §2.7: a soft failure
    ResetPassword: [
      {
        input: { token: o(), password: 'a brand new password' },
        expected: { status: 200, body: { success: false } },
      },
    ],
    SaveDevice: [{ input: { id: ids.computer, name: 'Mine now', releaseChannel: 'canary' } }],
    SaveKey: [
      { input: { isNew: false, id: ids.key, keychainId: ids.keychain, key: KEY } },
      { input: { isNew: true, id: o(), keychainId: ids.keychain, key: KEY, comment: 'x' } },
    ],
    SaveKeychain: [{ input: { isNew: false, id: ids.keychain, name: 'Mine now' } }],
    SaveNotification: [
      {
        input: { isNew: false, id: o(), methodId: o(), trigger: 'unlockRequestSubmitted' },
      },
      { input: { isNew: true, id: o(), methodId: o(), trigger: 'unlockRequestSubmitted' } },
    ],
    SaveUser: [
      { input: { ...CHILD_SETTINGS(), id: ids.child, isNew: false } },
      // a new child of one's own may not hold another parent's private keychain
      {
        input: {
          ...CHILD_SETTINGS(),
          id: newToken(),
          isNew: true,
          keychains: [{ id: ids.keychain }],
        },
      },
    ],
    ToggleChildKeychain: [{ input: { childId: ids.child, keychainId: ids.keychain } }],
    UpdateIOSDevice: [
      {
        input: {
          deviceId: o(),
          enabledBlockGroups: [o()],
          webPolicy: 'blockAll',
          webPolicyDomains: [],
        },
      },
    ],
    UpdateUnlockRequest: [{ input: { id: ids.unlockRequest, status: 'rejected' } }],
    UpsertBlockRule: [
      { input: { deviceId: o(), rule: { case: 'urlContains', value: 'x' } } },
      { input: { id: o(), deviceId: o(), rule: { case: 'urlContains', value: 'x' } } },
    ],
    UserActivityFeed: [{ input: { userId: ids.child, range: RANGE } }],
    VerifySignupEmail: [{ input: { token: o() } }],
  };
}

const randomIds = (): Ids => ({
  parent: newToken(),
  child: newToken(),
  computer: newToken(),
  computerUser: newToken(),
  keychain: newToken(),
  key: newToken(),
  blockedApp: newToken(),
  unlockRequest: newToken(),
  suspendFilterRequest: newToken(),
  other: newToken,
});

function casesOf(all: IdCases, op: DashboardOperation): IdCase<DashboardOperation>[] {
  return (all[op] ?? []) as IdCase<DashboardOperation>[];
}

function expectAnswer(result: CallResult, expected: Expected, label: string) {
  expectWellFormed(result, label);
  expect(result.status, `${label}: ${JSON.stringify(result.body)}`).toBe(expected.status);
  if (expected.type) expect(result.body.type, label).toBe(expected.type);
  // a missing row names its entity; a DeleteEntity_v2 type without a handler is "not available yet"
  if (expected.type === 'notFound' && result.body.id !== NOT_AVAILABLE_YET) {
    expect(result.body.id, label).toBe(ERROR_IDS.notFound);
    expect(result.body.entityName, label).toBeTruthy();
  }
  if (expected.body) expect(result.body, label).toEqual(expected.body);
}

const opsWithIds = dashboardOps.filter((op) => casesOf(idCases(randomIds()), op).length > 0);

describe('well-formed inputs whose every id is random', () => {
  test('the id sweep covers the implemented operations that take ids', () => {
    expect(opsWithIds).toEqual(
      expect.arrayContaining(['GetUser', 'SaveUser', 'SaveKey', 'DeleteEntity_v2', 'SaveDevice']),
    );
  });

  test.each(opsWithIds)('%s answers notFound (or its documented answer)', async (op) => {
    for (const { input, expected = NOT_FOUND } of casesOf(idCases(randomIds()), op)) {
      const result = await server.call(op, input, { token: alice.token });
      expectAnswer(result, expected, `${op} ${JSON.stringify(input)}`);
    }
  });
});

// ---------------------------------------------------------------------------
// Another parent's real rows

const bobsMac = await connectedMac(server, bob.adminId);
const bobsComputer = await server.db
  .selectFrom('computer_users')
  .select('computer_id')
  .where('id', '=', bobsMac.computerUserId)
  .executeTakeFirstOrThrow();
const bobsKeychain = await addKeychain(server, bob.adminId, { name: 'Bob only' });
const bobsKey = await addKey(server, bobsKeychain, website('bob.example.com'));
const bobsBlockedApp = await blockApp(server, bobsMac.childId, 'com.bob.game');
await assign(server, bobsMac.childId, bobsKeychain);
const [bobsUnlockRequest] = (
  await deviceCall(server, 'CreateUnlockRequests_v3', bobsMac.token, {
    blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'bob.example.com' }],
  })
).body as string[];
const bobsSuspendFilterRequest = (
  await deviceCall(server, 'CreateSuspendFilterRequest_v2', bobsMac.token, { duration: 300 })
).body as string;

const bobsIds: Ids = {
  parent: bob.adminId,
  child: bobsMac.childId,
  computer: bobsComputer.computer_id,
  computerUser: bobsMac.computerUserId,
  keychain: bobsKeychain,
  key: bobsKey,
  blockedApp: bobsBlockedApp,
  unlockRequest: bobsUnlockRequest!,
  suspendFilterRequest: bobsSuspendFilterRequest,
  other: newToken,
};

async function bobsSnapshot() {
  const read = async (op: string) => {
    const result = await server.call(op, undefined, { token: bob.token });
    expect(result.status, op).toBe(200);
    return result.body;
  };
  return {
    users: await read('GetUsers'),
    keychains: await read('GetAdminKeychains'),
    devices: await read('GetDevices'),
    admin: await read('GetAdmin'),
    unlockRequests: await read('GetUnlockRequests'),
    // issue 20: what waits for Bob, and his devices of every kind
    inbox: await read('GetInbox'),
    familyDevices: await read('GetFamilyDevices'),
    suspension: (
      await server.call('GetSuspendFilterRequest', bobsSuspendFilterRequest, {
        token: bob.token,
      })
    ).body,
    checkIn: (await deviceCall(server, 'CheckIn_v2', bobsMac.token, { appVersion: '2.4.0' }))
      .status,
  };
}

/** The error as the dashboard sees it: everything but the per-request id. */
function comparable(result: CallResult) {
  if (result.status === 200) return { status: 200, body: result.body };
  const { requestId: _requestId, ...error } = result.body;
  return { status: result.status, error };
}

const before = await bobsSnapshot();

describe("another parent's real rows", () => {
  const foreignIdOps = dashboardOps.filter((op) => casesOf(idCases(bobsIds), op).length > 0);

  test('Bob really has the rows the sweep aims at', () => {
    expect(before.users).toHaveLength(1);
    expect(before.users[0].blockedApps).toHaveLength(1);
    expect(before.users[0].keychains).toHaveLength(1);
    expect(before.keychains.keychains[0].keys).toHaveLength(1);
    expect(before.devices).toHaveLength(1);
    expect(before.checkIn).toBe(200);
    expect(before.unlockRequests).toHaveLength(1);
    expect(before.suspension.status).toBe('pending');
    expect(before.inbox.items).toHaveLength(2);
    expect(before.familyDevices).toHaveLength(1);
  });

  test.each(foreignIdOps)('%s answers exactly as for a missing row', async (op) => {
    const foreign = casesOf(idCases(bobsIds), op);
    const missing = casesOf(idCases(randomIds()), op);
    for (const [i, { input, expected = NOT_FOUND }] of foreign.entries()) {
      const label = `${op} ${JSON.stringify(input)}`;
      const result = await server.call(op, input, { token: alice.token });
      expectAnswer(result, expected, label);
      const asMissing = await server.call(op, missing[i]!.input, { token: alice.token });
      expect(comparable(result), label).toEqual(comparable(asMissing));
    }
  });

  // wire-contract §3.6: an isNew save whose id already exists is a badRequest, row untouched
  test('isNew saves reusing the ids of his rows are refused', async () => {
    const ownKeychain = await addKeychain(server, alice.adminId, { name: 'Alice' });
    const ownChild = newChildInput({ name: 'Ann' });
    expect((await server.call('SaveUser', ownChild, { token: alice.token })).status).toBe(200);
    const attempts: [string, unknown][] = [
      ['SaveUser', { ...CHILD_SETTINGS(), id: bobsIds.child, isNew: true }],
      ['SaveKeychain', { isNew: true, id: bobsIds.keychain, name: 'Taken' }],
      ['SaveKey', { isNew: true, id: bobsIds.key, keychainId: ownKeychain, key: KEY }],
      // a blocked-app id of his child, on her own child
      [
        'SaveUser',
        { ...ownChild, isNew: false, blockedApps: [{ id: bobsIds.blockedApp, identifier: 'x' }] },
      ],
    ];
    for (const [op, input] of attempts) {
      const result = await server.call(op, input, { token: alice.token });
      const label = `${op} ${JSON.stringify(input)}`;
      expectWellFormed(result, label);
      expect([result.status, result.body.type], label).toEqual([400, 'badRequest']);
    }
  });

  test("Alice's inbox and devices never show Bob's", async () => {
    const inbox = await server.call('GetInbox', undefined, { token: alice.token });
    const devices = await server.call('GetFamilyDevices', undefined, { token: alice.token });
    const seen = JSON.stringify([inbox.body, devices.body]);
    for (const id of [bobsIds.unlockRequest, bobsIds.suspendFilterRequest, bobsIds.computerUser]) {
      expect(seen).not.toContain(id);
    }
  });

  test("Bob's rows are unchanged after the sweep", async () => {
    expect(await bobsSnapshot()).toEqual(before);
  });
});

// issue 12: a co-parent of Alice's family is refused Bob's rows exactly as missing ones, too
const carol = await inviteCoParent(server, alice);

describe("another family's real rows, as a co-parent", () => {
  const foreignIdOps = dashboardOps.filter((op) => casesOf(idCases(bobsIds), op).length > 0);

  test('the co-parent sweep covers the operations that take ids', () => {
    expect(foreignIdOps).toEqual(expect.arrayContaining(['GetUser', 'SaveUser', 'RemoveParent']));
  });

  test.each(foreignIdOps)('%s answers exactly as for a missing row', async (op) => {
    const foreign = casesOf(idCases(bobsIds), op);
    const missing = casesOf(idCases(randomIds()), op);
    for (const [i, { input }] of foreign.entries()) {
      const label = `${op} ${JSON.stringify(input)}`;
      const result = await server.call(op, input, { token: carol.token });
      expectWellFormed(result, label);
      const asMissing = await server.call(op, missing[i]!.input, { token: carol.token });
      expect(comparable(result), label).toEqual(comparable(asMissing));
    }
  });

  test("Bob's rows are unchanged after the co-parent sweep", async () => {
    expect(await bobsSnapshot()).toEqual(before);
  });
});

// ---------------------------------------------------------------------------
// The Mac API

const alicesMac = await connectedMac(server, alice.adminId);

describe('every Mac operation with a resolver, with a connected Mac token', () => {
  test('the sweep covers the implemented Mac operations', () => {
    expect(deviceOps).toEqual(expect.arrayContaining(['CheckIn_v2', 'ConnectUser', 'Heartbeat']));
  });

  test.each(deviceOps)('%s: empty body, malformed JSON, wrong JSON types', async (op) => {
    const def = macosApp[op];
    for (const rawBody of ['', '{', ...WRONG_BODIES]) {
      const result = await server.call(op, undefined, {
        namespace: 'macos-app',
        token: alicesMac.token,
        rawBody,
      });
      const label = `${op} ${JSON.stringify(rawBody)}`;
      expectWellFormed(result, label);
      if (def.input === null) {
        expect(result.status, label).toBe(200);
      } else if (
        rawBody === '' ||
        rawBody === '{' ||
        !def.input.safeParse(JSON.parse(rawBody)).success
      ) {
        expect(result.status, label).toBe(400);
      }
    }
  });

  test("random and foreign ids are ignored, and Bob's computer user gets no event", async () => {
    const bobsEvents = await securityEvents(server, bob.adminId);
    for (const id of [newToken(), bobsMac.computerUserId]) {
      const checkIn = await deviceCall(server, 'CheckIn_v2', alicesMac.token, {
        appVersion: '2.4.0',
        pendingFilterSuspension: id,
        pendingUnlockRequests: [id, newToken()],
      });
      expectWellFormed(checkIn, 'CheckIn_v2');
      expect(checkIn.status).toBe(200);
      expect(checkIn.body.resolvedFilterSuspension).toBeUndefined();
      expect(checkIn.body.resolvedUnlockRequests).toEqual([]);

      const event = await deviceCall(server, 'LogSecurityEvent', alicesMac.token, {
        deviceId: id,
        event: 'appQuit',
      });
      expect(event.status).toBe(200);
    }
    expect(await securityEvents(server, bob.adminId)).toEqual(bobsEvents);
    expect(
      (await securityEvents(server, alice.adminId)).filter((e) => e.event === 'appQuit'),
    ).toEqual([]);
  });

  test('an unknown connection code is refused as such', async () => {
    const result = await server.call(
      'ConnectUser',
      {
        verificationCode: 1,
        appVersion: '2.4.0',
        modelIdentifier: 'Mac14,2',
        username: 'x',
        fullUsername: 'X',
        numericId: 501,
        serialNumber: 'C02SWEEP',
      },
      { namespace: 'macos-app' },
    );
    expectWellFormed(result, 'ConnectUser');
    expect([result.status, result.body.appTag]).toEqual([401, 'connectionCodeNotFound']);
  });
});

// ---------------------------------------------------------------------------
// The iOS API

describe('every iOS operation, with a connected iPad token', () => {
  test('empty body, malformed JSON, wrong JSON types: 400s, never a 500', async () => {
    const childId = await addChild(server, alice.adminId);
    const connected = await server.call(
      'ConnectDevice',
      {
        verificationCode: await addConnectionCode(server, childId),
        vendorId: newToken(),
        deviceType: 'iPad',
        appVersion: '1.0',
        iosVersion: '17.0',
      },
      { namespace: 'ios-app' },
    );
    expect(connected.status).toBe(200);
    for (const op of iosAppOperationNames) {
      const def = iosApp[op];
      for (const rawBody of ['', '{', ...WRONG_BODIES]) {
        const result = await server.call(op, undefined, {
          namespace: 'ios-app',
          token: connected.body.token,
          rawBody,
        });
        const label = `${op} ${JSON.stringify(rawBody)}`;
        expectWellFormed(result, label);
        if (def.input === null) {
          // void operations (ConnectAccountFeatureFlag) ignore the body
          expect(result.status, label).toBe(200);
        } else if (
          rawBody === '' ||
          rawBody === '{' ||
          !def.input.safeParse(JSON.parse(rawBody)).success
        ) {
          expect(result.status, label).toBe(400);
        }
      }
    }
  });
});

// ---------------------------------------------------------------------------
// Strings PostgreSQL cannot take: U+0000 anywhere, and values too long for a unique index

describe('strings the database cannot hold are refused up front', () => {
  // random hex does not compress, so it overflows a PostgreSQL index entry (about 2.7 KB)
  const long = randomBytes(3000).toString('hex');

  test.each<[string, unknown, 'dashboard' | 'macos-app']>([
    ['SaveKeychain', { isNew: true, id: newToken(), name: 'Sch\u0000ool' }, 'dashboard'],
    ['SaveUser', newChildInput({ name: 'Sa\u0000m' }), 'dashboard'],
    ['RequestPublicKeychain', { searchQuery: 'x', description: 'a\u0000' }, 'dashboard'],
    ['Login', { email: 'a\u0000@example.com', password: 'x' }, 'dashboard'],
    ['Signup', { email: 'a@example.com', password: 'correct horse', gclid: '\u0000' }, 'dashboard'],
    ['CheckIn_v2', { appVersion: '2.4\u0000' }, 'macos-app'],
    ['LogSecurityEvent', { deviceId: newToken(), event: 'x', 'k\u0000': 1 }, 'macos-app'],
  ])('%s with U+0000 → 400', async (op, input, namespace) => {
    const token = namespace === 'dashboard' ? alice.token : alicesMac.token;
    const result = await server.call(op, input, { namespace, token });
    expectWellFormed(result, op);
    expect([result.status, result.body.id]).toEqual([400, 'fd0f59dc']);
  });

  test('an email longer than SMTP allows is invalid, and Login just fails', async () => {
    const email = `${long}@example.com`;
    for (const op of ['Signup', 'RequestMagicLink', 'SendPasswordResetEmail']) {
      const result = await server.call(op, { email, password: 'correct horse' });
      expectWellFormed(result, op);
      expect([op, result.status, result.body.id]).toEqual([op, 400, '3b8e1f6a']);
    }
    const login = await server.call('Login', { email, password: 'correct horse' });
    expect([login.status, login.body.id]).toEqual([401, '1e087878']);
  });

  test('long rate-limit buckets are stored short and distinct', () => {
    const a = storedBucket(`login-failures:email:${long}a`);
    const b = storedBucket(`login-failures:email:${long}b`);
    expect(a.length).toBeLessThanOrEqual(200);
    expect(a).not.toBe(b);
    expect(storedBucket('login:ip:127.0.0.1')).toBe('login:ip:127.0.0.1');
  });

  test('ConnectUser refuses an overlong serial number and keeps the code', async () => {
    const childId = await addChild(server, alice.adminId);
    const code = await addConnectionCode(server, childId);
    const refused = await connectUser(server, code, newMac({ serialNumber: long }));
    expectWellFormed(refused, 'ConnectUser');
    expect([refused.status, refused.body.id]).toEqual([400, 'f1532059']);
    expect((await connectUser(server, code, newMac())).status).toBe(200);
  });

  test('CheckIn_v2 skips an overlong unknown bundle id and counts the others', async () => {
    const result = await deviceCall(server, 'CheckIn_v2', alicesMac.token, {
      appVersion: '2.4.0',
      namedApps: [{ bundleId: long }, { bundleId: 'com.example.sweep' }],
    });
    expectWellFormed(result, 'CheckIn_v2');
    expect(result.status).toBe(200);
    const stored = await server.db
      .selectFrom('unidentified_apps')
      .select('bundle_id')
      .where('bundle_id', 'in', [long, 'com.example.sweep'])
      .execute();
    expect(stored.map((row) => row.bundle_id)).toEqual(['com.example.sweep']);
  });
});
