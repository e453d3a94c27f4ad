import { createECDH, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dashboard, dashboardOperationNames } from '@keyward/contract/dashboard';
import { describe, expect, test } from 'vitest';
import {
  AUDITED_OPERATIONS,
  READ_ONLY_OPERATIONS,
  SIGN_IN_OPERATIONS,
} from '../src/audit/operations.ts';
import { AUDIT_PAGE_SIZE, pruneAuditLog, summarise } from '../src/audit/record.ts';
import { sql } from 'kysely';
import { dialectOf } from '../src/db/database.ts';
import { dataExportsSettled } from '../src/exports/data-export.ts';
import { DAY, toDbTime } from '../src/db/values.ts';
import { runRetention } from '../src/jobs/retention.ts';
import { createScreenshotStorage } from '../src/services/storage.ts';
import { newToken } from '../src/services/tokens.ts';
import { insertLine } from './activity-helpers.ts';
import { finishCheckout, stripeUrl } from './billing-helpers.ts';
import {
  addChild,
  addConnectionCode,
  addKey,
  addKeychain,
  connectedMac,
  deviceCall,
  inviteCoParent,
  newChildInput,
  serverWithParents,
  website,
} from './fixtures.ts';
import { addMethod } from './notifications-fixtures.ts';

// Issue 12: the audit log. Every dashboard operation is classified in src/audit/operations.ts;
// every mutating one that has a resolver writes an entry naming the person, the operation, the
// entity and the fields that changed, never a secret.

const { server, alice, bob } = await serverWithParents();
const dana = await inviteCoParent(server, alice, 'dana@example.com');

const hasResolver = (op: string) =>
  existsSync(new URL(`../src/operations/dashboard/${op}.ts`, import.meta.url));

async function entries(token = alice.token, input: Record<string, unknown> = {}) {
  const result = await server.call('GetAuditLog', input, { token });
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body as {
    entries: {
      id: string;
      at: string;
      personId: string;
      personEmail: string;
      operation: string;
      entityType: string;
      entityId?: string;
      summary: string;
      changes: { field: string; before: string | null; after: string | null }[];
      childId?: string;
    }[];
    nextBefore?: string;
  };
}

describe('the classification walks the contract', () => {
  test('every dashboard operation is read-only, a sign-in flow, or audited (exactly one)', () => {
    for (const op of dashboardOperationNames) {
      const kinds = [
        READ_ONLY_OPERATIONS.has(op),
        SIGN_IN_OPERATIONS.has(op),
        Object.hasOwn(AUDITED_OPERATIONS, op),
      ].filter(Boolean);
      expect(kinds, `${op} must be listed once in src/audit/operations.ts`).toHaveLength(1);
    }
  });

  test('public operations are sign-in flows; parent operations are audited or read-only', () => {
    for (const op of dashboardOperationNames) {
      if (dashboard[op].auth === 'none') expect(SIGN_IN_OPERATIONS.has(op), op).toBe(true);
      else if (op !== 'Logout') expect(SIGN_IN_OPERATIONS.has(op), op).toBe(false);
    }
  });

  test('the lists name only operations of the contract (or of the two-factor work in progress)', () => {
    const known = new Set<string>(dashboardOperationNames);
    const pending = new Set([
      'ConfirmTotpEnrolment',
      'DisableTotp',
      'FinishPasskeyLogin',
      'FinishPasskeyRegistration',
      'GetDataExport',
      'GetSignInSecurity',
      'LoginSecondFactor',
      'RemovePasskey',
      'RequestDataExport',
      'StartPasskeyLogin',
      'StartPasskeyRegistration',
      'StartTotpEnrolment',
    ]);
    const listed = [
      ...READ_ONLY_OPERATIONS,
      ...SIGN_IN_OPERATIONS,
      ...Object.keys(AUDITED_OPERATIONS),
    ];
    for (const op of listed) expect(known.has(op) || pending.has(op), op).toBe(true);
  });
});

// A successful call of every audited operation; `token` defaults to the co-parent's.
// A checkout needs a family that has not paid yet: those scenarios bring their own (`family`).
type Scenario = () => Promise<{
  input?: unknown;
  token?: string;
  family?: { token: string; adminId: string; email: string };
}>;

/** Issue 23: a browser's push subscription as SavePushSubscription receives it. */
function pushSubscriptionInput() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    id: newToken(),
    endpoint: `https://push.example.com/send/${newToken()}`,
    keys: {
      p256dh: ecdh.getPublicKey().toString('base64url'),
      auth: randomBytes(16).toString('base64url'),
    },
    label: 'Firefox on Linux',
    triggers: ['unlockRequestSubmitted'],
  };
}

const scenarios: Record<string, Scenario> = {
  SaveUser: async () => ({ input: newChildInput({ name: 'Sam' }) }),
  SaveKeychain: async () => ({ input: { isNew: true, id: newToken(), name: 'Homework' } }),
  SaveKey: async () => {
    const keychainId = await addKeychain(server, alice.adminId, { name: 'Keys' });
    return {
      input: { isNew: true, id: newToken(), keychainId, key: website('khanacademy.org') },
    };
  },
  ToggleChildKeychain: async () => {
    const childId = await addChild(server, alice.adminId, { name: 'Toggle' });
    const keychainId = await addKeychain(server, alice.adminId, { name: 'Toggled' });
    return { input: { childId, keychainId } };
  },
  CreatePendingAppConnection: async () => ({
    input: { userId: await addChild(server, alice.adminId) },
  }),
  CreateDnsDevice: async () => ({
    input: { childId: await addChild(server, alice.adminId), kind: 'android', name: 'Phone' },
  }),
  CreatePendingNotificationMethod: async () => ({
    input: { case: 'email', email: `n-${newToken().slice(0, 6)}@example.com` },
  }),
  ConfirmPendingNotificationMethod: async () => {
    const email = `c-${newToken().slice(0, 6)}@example.com`;
    const created = await server.call(
      'CreatePendingNotificationMethod',
      { case: 'email', email },
      { token: dana.token },
    );
    const code = Number(/\d{6}/.exec(server.lastEmailTo(email).text)![0]);
    return { input: { id: created.body.methodId, code } };
  },
  SaveNotification: async () => {
    const methodId = await addMethod(server, alice.adminId, {
      case: 'email',
      email: `m-${newToken().slice(0, 6)}@example.com`,
    });
    return {
      token: alice.token,
      input: { id: newToken(), isNew: true, methodId, trigger: 'unlockRequestSubmitted' },
    };
  },
  SavePushSubscription: async () => ({ input: pushSubscriptionInput() }),
  // owner only (the report goes to the account's address)
  SaveWeeklyReport: async () => ({
    token: alice.token,
    input: { isEnabled: false, timeZone: 'Europe/Paris' },
  }),
  DeletePushSubscription: async () => {
    const saved = await server.call('SavePushSubscription', pushSubscriptionInput(), {
      token: dana.token,
    });
    return { input: { id: saved.body.id } };
  },
  DecideFilterSuspensionRequest: async () => {
    const mac = await connectedMac(server, alice.adminId);
    const id = (
      await deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, { duration: 300 })
    ).body as string;
    return { input: { id, decision: { case: 'rejected' } } };
  },
  // issue 34
  DecideMoreTimeRequest: async () => {
    const childId = await addChild(server, alice.adminId, { name: 'More' });
    const code = await addConnectionCode(server, childId);
    const browser = await server.call(
      'ConnectBrowser',
      {
        code,
        browser: 'Chrome',
        browserVersion: '142.0',
        platform: 'linux',
        extensionVersion: '1.0.0',
      },
      { namespace: 'browser-filter' },
    );
    const asked = await server.call(
      'CreateMoreTimeRequest',
      { minutes: 15 },
      { namespace: 'browser-filter', token: browser.body.token },
    );
    return { input: { id: asked.body.id, decision: { case: 'accepted', minutes: 15 } } };
  },
  SaveScreenTime: async () => {
    const childId = await addChild(server, alice.adminId, { name: 'Allowance' });
    const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
    return {
      input: {
        childId,
        allowance: Object.fromEntries(days.map((day) => [day, 90])),
        exemptKeychainIds: [],
      },
    };
  },
  PauseInternet: async () => ({
    input: { childId: await addChild(server, alice.adminId, { name: 'Paused' }), minutes: 15 },
  }),
  ResumeInternet: async () => {
    const childId = await addChild(server, alice.adminId, { name: 'Resumed' });
    await server.call('PauseInternet', { childId, minutes: null }, { token: alice.token });
    return { input: { childId } };
  },
  UpdateUnlockRequest: async () => {
    const mac = await connectedMac(server, alice.adminId);
    const [id] = (
      await deviceCall(server, 'CreateUnlockRequests_v3', mac.token, {
        blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'khanacademy.org' }],
      })
    ).body as string[];
    return { input: { id, status: 'accepted', responseComment: 'ok' } };
  },
  SaveDevice: async () => {
    const mac = await connectedMac(server, alice.adminId);
    const computer = await server.db
      .selectFrom('computer_users')
      .select('computer_id')
      .where('id', '=', mac.computerUserId)
      .executeTakeFirstOrThrow();
    return { input: { id: computer.computer_id, name: 'Study Mac', releaseChannel: 'beta' } };
  },
  FlagActivityItems: async () => {
    const mac = await connectedMac(server, alice.adminId);
    const id = await insertLine(
      server,
      mac.computerUserId,
      toDbTime(server.clock.now()),
      'Notes',
      'hi',
    );
    return { input: [id] };
  },
  DeleteActivityItems_v2: async () => {
    const mac = await connectedMac(server, alice.adminId);
    const id = await insertLine(
      server,
      mac.computerUserId,
      toDbTime(server.clock.now()),
      'Notes',
      'x',
    );
    return { input: { keystrokeLineIds: [id], screenshotIds: [] } };
  },
  DeleteEntity_v2: async () => {
    const keychainId = await addKeychain(server, alice.adminId, { name: 'Old' });
    return { input: { type: 'key', id: await addKey(server, keychainId, website('old.example')) } };
  },
  RequestPublicKeychain: async () => ({
    input: { searchQuery: 'math games', description: 'for 2nd grade' },
  }),
  UpdateIOSDevice: async () => {
    const device = await connectIpad();
    return {
      input: {
        deviceId: device,
        enabledBlockGroups: [],
        webPolicy: 'blockAllExcept',
        webPolicyDomains: ['khanacademy.org'],
      },
    };
  },
  UpsertBlockRule: async () => ({
    input: { deviceId: await connectIpad(), rule: { case: 'targetContains', value: 'tiktok.com' } },
  }),
  InviteParent: async () => ({
    token: alice.token,
    input: { email: `i-${newToken().slice(0, 6)}@example.com` },
  }),
  RemoveParent: async () => {
    const co = await inviteCoParent(server, alice);
    return { token: alice.token, input: { id: co.personId } };
  },
  HandleCheckoutCancel: async () => {
    const family = await server.signUpVerifiedParent();
    const { sessionId } = await finishCheckout(server, await stripeUrl(server, family), 'cancel');
    return { family, input: { stripeCheckoutSessionId: sessionId } };
  },
  HandleCheckoutSuccess: async () => {
    const family = await server.signUpVerifiedParent();
    const { sessionId } = await finishCheckout(server, await stripeUrl(server, family), 'complete');
    return { family, input: { stripeCheckoutSessionId: sessionId } };
  },
  StartTotpEnrolment: async () => ({}),
  StartPasskeyRegistration: async () => ({}),
  // owner only (issue 19)
  RequestDataExport: async () => ({ token: alice.token }),
};

/** Need a second factor or a passkey response; the two-factor tests drive them. */
const DRIVEN_ELSEWHERE = new Set([
  'ConfirmTotpEnrolment',
  'DisableTotp',
  'FinishPasskeyRegistration',
  'RemovePasskey',
]);

async function connectIpad(): Promise<string> {
  const childId = await addChild(server, alice.adminId, { name: 'Pad' });
  const code = await addConnectionCode(server, childId);
  const result = await server.call(
    'ConnectDevice',
    {
      verificationCode: code,
      vendorId: newToken(),
      deviceType: 'iPad',
      appVersion: '1.4.0',
      iosVersion: '17.5',
    },
    { namespace: 'ios-app' },
  );
  expect(result.status, JSON.stringify(result.body)).toBe(200);
  return result.body.deviceId as string;
}

/** Who calls a scenario: its own family's owner, the owner, or (by default) the co-parent. */
function caller(scenario: Awaited<ReturnType<Scenario>>) {
  const { input, family } = scenario;
  if (family)
    return { input, token: family.token, person: { id: family.adminId, email: family.email } };
  const token = scenario.token ?? dana.token;
  const person =
    token === dana.token
      ? { id: dana.personId, email: dana.email }
      : { id: alice.adminId, email: alice.email };
  return { input, token, person };
}

const auditedWithResolver = Object.keys(AUDITED_OPERATIONS).filter(
  (op) => hasResolver(op) && Object.hasOwn(dashboard, op),
);

describe('every mutating operation writes an entry', () => {
  test('each audited operation with a resolver has a scenario here', () => {
    const missing = auditedWithResolver.filter(
      (op) => !Object.hasOwn(scenarios, op) && !DRIVEN_ELSEWHERE.has(op),
    );
    expect(missing).toEqual([]);
  });

  test.each(auditedWithResolver.filter((op) => Object.hasOwn(scenarios, op)))('%s', async (op) => {
    const { input, token, person } = caller(await scenarios[op]!());
    server.clock.advance(1000);
    const result = await server.call(op, input, { token });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const [newest] = (await entries(token)).entries;
    expect(newest).toMatchObject({ operation: op, at: toDbTime(server.clock.now()) });
    expect(newest!.personId).toBe(person.id);
    expect(newest!.personEmail).toBe(person.email);
    expect(newest!.summary.length).toBeGreaterThan(5);
    // never a secret
    const stored = JSON.stringify(newest);
    expect(stored).not.toMatch(/argon2|xoxb-|password_hash|token_hash|code_hash/);
  });

  test('a failed operation writes nothing', async () => {
    const before = (await entries()).entries.length;
    const failed = await server.call(
      'SaveUser',
      { ...newChildInput(), id: 'nope' },
      { token: dana.token },
    );
    expect(failed.status).toBe(400);
    const foreign = await server.call('RemoveParent', { id: newToken() }, { token: alice.token });
    expect(foreign.status).toBe(404);
    expect((await entries()).entries.length).toBe(before);
  });
});

// "Written in the same transaction as the change": with the audit log refusing inserts, every
// audited operation fails and leaves the database exactly as it was (rate-limit counters aside: a
// spent attempt stands whatever the outcome).
const postgres = dialectOf(server.config) === 'postgres';
const UNCOMPARED = new Set(['rate_limit_counters', 'kysely_migration', 'kysely_migration_lock']);

async function everyRow(): Promise<Record<string, string[]>> {
  const tables = postgres
    ? await sql<{
        name: string;
      }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(server.db)
    : await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(
        server.db,
      );
  const dump: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    if (UNCOMPARED.has(name)) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(
      server.db,
    );
    dump[name] = rows.rows.map((row) => JSON.stringify(row)).sort();
  }
  return dump;
}

async function refuseAuditEntries(refuse: boolean) {
  if (postgres) {
    await sql`create or replace function refuse_audit() returns trigger as $$ begin raise exception 'audit log unavailable'; end $$ language plpgsql`.execute(
      server.db,
    );
    await (refuse
      ? sql`create trigger refuse_audit before insert on audit_log for each row execute function refuse_audit()`
      : sql`drop trigger refuse_audit on audit_log`
    ).execute(server.db);
  } else {
    await (refuse
      ? sql`create trigger refuse_audit before insert on audit_log begin select raise(abort, 'audit log unavailable'); end`
      : sql`drop trigger refuse_audit`
    ).execute(server.db);
  }
}

describe('an entry is written in the same transaction as the change', () => {
  test.each(auditedWithResolver.filter((op) => Object.hasOwn(scenarios, op)))('%s', async (op) => {
    const { input, token } = caller(await scenarios[op]!());
    server.clock.advance(1000);
    // data exports are built in the background: compare the tables once none is building
    await dataExportsSettled();
    const before = await everyRow();
    await refuseAuditEntries(true);
    try {
      const result = await server.call(op, input, { token });
      expect(result.status, JSON.stringify(result.body)).toBe(500);
    } finally {
      await refuseAuditEntries(false);
    }
    expect(await everyRow()).toEqual(before);
    // and with the log back, the same call goes through with its entry
    const again = await server.call(op, input, { token });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await entries(token)).entries[0]).toMatchObject({ operation: op });
  });
});

describe('entries in words, with the fields that changed', () => {
  test("'dana turned screenshots on for Sam'", async () => {
    const child = newChildInput({ name: 'Sam', screenshotsEnabled: false });
    await server.call('SaveUser', child, { token: alice.token });
    server.clock.advance(1000);
    await server.call(
      'SaveUser',
      { ...child, isNew: false, screenshotsEnabled: true },
      { token: dana.token },
    );
    const [newest] = (await entries()).entries;
    expect(newest).toMatchObject({
      operation: 'SaveUser',
      entityType: 'child',
      entityId: child.id,
      childId: child.id,
      personEmail: 'dana@example.com',
      summary: 'dana@example.com turned screenshots on for Sam',
      changes: [{ field: 'screenshots', before: 'off', after: 'on' }],
    });
    const added = (await entries(alice.token, { childId: child.id })).entries.at(-1);
    expect(added!.summary).toBe(`${alice.email} added child Sam`);
  });

  test('a suspension decision names the child and the fields it changed', async () => {
    const mac = await connectedMac(server, alice.adminId);
    const id = (
      await deviceCall(server, 'CreateSuspendFilterRequest_v2', mac.token, { duration: 300 })
    ).body as string;
    server.clock.advance(1000);
    const decided = await server.call(
      'DecideFilterSuspensionRequest',
      { id, decision: { case: 'rejected' }, responseComment: 'Not tonight' },
      { token: dana.token },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    const [newest] = (await entries()).entries;
    expect(newest).toMatchObject({
      operation: 'DecideFilterSuspensionRequest',
      entityId: id,
      childId: mac.childId,
      personEmail: 'dana@example.com',
    });
    expect(newest!.changes).toEqual(
      expect.arrayContaining([
        { field: 'status', before: 'pending', after: 'rejected' },
        { field: 'response comment', before: null, after: 'Not tonight' },
      ]),
    );
  });

  test('deletions name what was deleted; an entity without a snapshot is named by its type', async () => {
    const keychainId = await addKeychain(server, alice.adminId, { name: 'Old chain' });
    server.clock.advance(1000);
    await server.call(
      'DeleteEntity_v2',
      { type: 'keychain', id: keychainId },
      { token: dana.token },
    );
    const [newest] = (await entries()).entries;
    expect(newest!.summary).toBe('dana@example.com deleted keychain Old chain');
    expect(newest!.changes).toContainEqual({ field: 'name', before: 'Old chain', after: null });
    expect(
      summarise({
        who: 'dana@example.com',
        operation: 'DeleteEntity_v2',
        entityType: 'announcement',
        before: undefined,
        after: undefined,
        changes: [],
        description: undefined,
        fallback: AUDITED_OPERATIONS.DeleteEntity_v2!.fallback!({ type: 'announcement' }),
      }),
    ).toBe('dana@example.com deleted an announcement');
  });

  test('a Slack method never shows its token', async () => {
    const slack = {
      case: 'slack',
      channelId: 'C0FAM',
      channelName: '#fam',
      token: 'xoxb-top-secret',
    };
    const created = await server.call('CreatePendingNotificationMethod', slack, {
      token: dana.token,
    });
    // the fake Slack outbox may refuse; either way no entry may hold the token
    expect(created.status).toBeLessThan(500);
    const all = JSON.stringify(await entries());
    expect(all).not.toContain('xoxb-top-secret');
  });

  test('filters by person and by child; another family sees none of it', async () => {
    const byDana = await entries(alice.token, { personId: dana.personId });
    expect(byDana.entries.length).toBeGreaterThan(0);
    expect(byDana.entries.every((e) => e.personId === dana.personId)).toBe(true);
    const byOwner = await entries(alice.token, { personId: alice.adminId });
    expect(byOwner.entries.every((e) => e.personId === alice.adminId)).toBe(true);
    // the co-parent reads the same log
    expect((await entries(dana.token)).entries[0]).toEqual((await entries(alice.token)).entries[0]);
    expect((await entries(bob.token)).entries).toEqual([]);
    expect((await entries(bob.token, { personId: dana.personId })).entries).toEqual([]);
  });
});

describe('paging and retention', () => {
  test('50 a page, newest first, nextBefore until the last page', async () => {
    const family = await server.signUpVerifiedParent();
    for (let i = 0; i < AUDIT_PAGE_SIZE + 5; i++) {
      // the same instant for all: entries stay strictly ordered anyway
      await server.call(
        'SaveKeychain',
        { isNew: true, id: newToken(), name: `K${i}` },
        { token: family.token },
      );
    }
    const first = await entries(family.token);
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.entries[0]!.summary).toContain(`K${AUDIT_PAGE_SIZE + 4}`);
    const times = first.entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(first.nextBefore).toBe(times.at(-1));
    const second = await entries(family.token, { before: first.nextBefore });
    expect(second.entries).toHaveLength(5);
    expect(second.nextBefore).toBeUndefined();
    expect(second.entries.at(-1)!.summary).toContain('K0');
  });

  test('entries older than a year are pruned', async () => {
    const family = await server.signUpVerifiedParent();
    await server.call(
      'SaveKeychain',
      { isNew: true, id: newToken(), name: 'Old' },
      { token: family.token },
    );
    server.clock.advance(366 * DAY);
    const login = await server.call('Login', { email: family.email, password: family.password });
    await server.call(
      'SaveKeychain',
      { isNew: true, id: newToken(), name: 'New' },
      { token: login.body.token },
    );
    // the nightly retention job prunes them
    const storage = createScreenshotStorage(server.config, server.clock);
    const report = await runRetention(
      { db: server.db, storage, mode: server.config.mode },
      server.clock.now(),
    );
    expect(report.auditEntries).toBeGreaterThanOrEqual(1);
    expect(await pruneAuditLog(server.db, server.clock.now())).toBe(0);
    const left = await entries(login.body.token);
    expect(left.entries.map((e) => e.summary)).toEqual([`${family.email} added keychain New`]);
  });
});
