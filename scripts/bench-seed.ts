// Seeds a benchmark database (run by the bench scripts with `node --import tsx`), on the database
// the environment points at (DATA_DIR/SQLite or DATABASE_URL), migrating it first. Prints one JSON
// line on stdout.
//
//   family          a parent with 3 children, 3 connected Macs, 5 keychains × 50 keys, every
//                   keychain assigned to every child; through the dashboard and device operations
//   home            a parent with one child (Sam) and one connected Mac: the signed-in home page
//                   of the phone bench (bench-phone.mjs)
//   devices <N>     N more Macs with their own tokens (rows written in bulk: one parent, one child
//                   per 2 Macs), plus one probe Mac (its own parent and child) to measure pushes

import { randomBytes } from 'node:crypto';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDatabase, dialectOf, migrateToLatest } from '../apps/server/src/db/database.ts';
import { toDbBool, toDbTime } from '../apps/server/src/db/values.ts';
import type { OutgoingEmail } from '../apps/server/src/services/mail.ts';
import { hashToken, newToken } from '../apps/server/src/services/tokens.ts';

const [mode, countArg] = process.argv.slice(2);
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const db = createDatabase(config);
await migrateToLatest(db, dialectOf(config));
const mails: OutgoingEmail[] = [];
const app = await buildApp({
  config,
  db,
  mailer: {
    async send(email) {
      mails.push(email);
    },
  },
});

async function call(op: string, input: unknown, headers: Record<string, string> = {}) {
  const namespace = op === 'ConnectUser' || op === 'CheckIn_v2' ? 'macos-app' : 'dashboard';
  const response = await app.inject({
    method: 'POST',
    url: `/pairql/${namespace}/${op}`,
    headers: { 'content-type': 'application/json', ...headers },
    ...(input === undefined ? {} : { payload: JSON.stringify(input) }),
  });
  if (response.statusCode !== 200) throw new Error(`${op}: ${response.body}`);
  return response.json();
}

async function parent() {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  await call('Signup', { email, password: 'bench password 1' });
  const link = mails
    .filter((mail) => mail.to === email)
    .flatMap((mail) => mail.links)
    .find((l) => l.includes('/verify-signup-email/'));
  if (!link) throw new Error('no verification link');
  const verified = await call('VerifySignupEmail', { token: link.split('/').at(-1) });
  return { adminId: verified.adminId as string, token: verified.token as string, email };
}

async function child(token: string, name: string) {
  const id = newToken();
  await call(
    'SaveUser',
    {
      id,
      isNew: true,
      name,
      keyloggingEnabled: false,
      screenshotsEnabled: false,
      screenshotsResolution: 1000,
      screenshotsFrequency: 120,
      showSuspensionActivity: false,
      keychains: [],
    },
    { 'x-admintoken': token },
  );
  return id;
}

async function connectMac(token: string, childId: string, i: number) {
  const { code } = await call(
    'CreatePendingAppConnection',
    { userId: childId },
    { 'x-admintoken': token },
  );
  const connected = await call('ConnectUser', {
    verificationCode: code,
    appVersion: '2.4.0',
    modelIdentifier: 'MacBookPro16,1',
    username: `kid${i}`,
    fullUsername: `Kid ${i}`,
    numericId: 501 + i,
    serialNumber: `C02BENCH${randomBytes(3).toString('hex').toUpperCase()}`,
    osVersion: '14.5.0',
    isAdmin: false,
  });
  return { token: connected.token as string, computerUserId: connected.deviceId as string };
}

let result: unknown;
if (mode === 'family') {
  const p = await parent();
  const children = [];
  for (const name of ['Sam', 'Kim', 'Alex']) children.push(await child(p.token, name));
  const macs = [];
  for (const [i, childId] of children.entries()) macs.push(await connectMac(p.token, childId, i));
  const keychains = [];
  for (let k = 0; k < 5; k++) {
    const id = newToken();
    await call(
      'SaveKeychain',
      { isNew: true, id, name: `Keychain ${k + 1}`, description: 'Benchmark keys' },
      { 'x-admintoken': p.token },
    );
    for (let n = 0; n < 50; n++) {
      await call(
        'SaveKey',
        {
          isNew: true,
          id: newToken(),
          keychainId: id,
          key: {
            type: 'anySubdomain',
            domain: `site${k}-${n}.example.com`,
            scope: { type: 'webBrowsers' },
          },
          comment: n % 5 === 0 ? 'homework' : undefined,
        },
        { 'x-admintoken': p.token },
      );
    }
    for (const childId of children) {
      await call('ToggleChildKeychain', { keychainId: id, childId }, { 'x-admintoken': p.token });
    }
    keychains.push(id);
  }
  result = { adminToken: p.token, email: p.email, children, macs, keychains };
} else if (mode === 'home') {
  const p = await parent();
  const childName = 'Sam';
  const childId = await child(p.token, childName);
  await connectMac(p.token, childId, 0);
  result = { adminId: p.adminId, adminToken: p.token, childName };
} else if (mode === 'devices') {
  const count = Number(countArg);
  const bulk = await parent();
  const probeParent = await parent();
  const probeChild = await child(probeParent.token, 'Probe');
  const probe = await connectMac(probeParent.token, probeChild, 0);
  const now = toDbTime(new Date());
  const tokens: string[] = [];
  const BATCH = 250;
  for (let start = 0; start < count; start += BATCH) {
    const children = [];
    const computers = [];
    const users = [];
    const macTokens = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      if (i % 2 === 0) {
        children.push({
          id: newToken(),
          parent_id: bulk.adminId,
          name: `Child ${i / 2}`,
          keylogging_enabled: toDbBool(false),
          screenshots_enabled: toDbBool(false),
          screenshots_resolution: 1000,
          screenshots_frequency: 120,
          show_suspension_activity: toDbBool(false),
          downtime: null,
          created_at: now,
          updated_at: now,
        });
      }
      const childId = children.at(-1)!.id;
      const computerId = newToken();
      computers.push({
        id: computerId,
        parent_id: bulk.adminId,
        custom_name: null,
        model_identifier: 'MacBookPro16,1',
        serial_number: `C02B${i.toString().padStart(8, '0')}`,
        filter_version: null,
        os_version: null,
        created_at: now,
        updated_at: now,
      });
      const userId = newToken();
      users.push({
        id: userId,
        child_id: childId,
        computer_id: computerId,
        app_version: '2.4.0',
        username: 'kid',
        full_username: 'Kid',
        numeric_id: 501,
        is_admin: toDbBool(false),
        created_at: now,
        updated_at: now,
      });
      const token = newToken();
      tokens.push(token);
      macTokens.push({
        id: newToken(),
        token_hash: hashToken(token),
        child_id: childId,
        computer_user_id: userId,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
    }
    await db.transaction().execute(async (trx) => {
      if (children.length) await trx.insertInto('children').values(children).execute();
      await trx.insertInto('computers').values(computers).execute();
      await trx.insertInto('computer_users').values(users).execute();
      await trx.insertInto('mac_app_tokens').values(macTokens).execute();
    });
  }
  result = { tokens, probe: { ...probe, childId: probeChild, adminToken: probeParent.token } };
} else {
  throw new Error('usage: bench-seed.ts family | home | devices <N>');
}

await app.close();
await db.destroy();
process.stdout.write(`${JSON.stringify(result)}\n`);
