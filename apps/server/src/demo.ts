import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { FilterState } from '@keyward/contract/device';
import type { RuleSchedule, SharedKey } from '@keyward/contract/shared';
import { LIFECYCLE_DAYS } from '@keyward/domain/subscription';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { seedDemoActivity } from './activity/demo-activity.ts';
import { buildApp } from './app.ts';
import { ConfigError, type Config, loadConfig } from './config.ts';
import { createDatabase, type Db, dialectOf, migrateToLatest } from './db/database.ts';
import { addMs, DAY, MINUTE, toDbTime } from './db/values.ts';
import { seedDemoHome } from './demo-home.ts';
import { recordDeviceMessage } from './devices/presence.ts';
import { createMailer, type Mailer, type OutgoingEmail } from './services/mail.ts';
import { listenUntilStopped } from './serve.ts';

// `npm run demo`: the server exactly as main.ts starts it, on its own data directory (default
// ./data/demo, so real data is never touched), with a demo family seeded on first start through
// the real operations (Signup, VerifySignupEmail, SaveUser, CreatePendingAppConnection, ConnectUser,
// SaveDevice, SaveKeychain, SaveKey, CreateUnlockRequests_v3, CreateSuspendFilterRequest_v2): two
// children, three computers and keychains — one online with the filter on, one suspended for 20
// minutes, one offline — and pending unlock and suspension requests; Kim also has an iPad with a
// custom block rule and a pending suspension request (ConnectDevice, UpdateIOSDevice,
// UpsertBlockRule, ios-app CreateSuspendFilterRequest); an announcement and security events of both
// kinds (demo-home.ts).

export const DEMO_EMAIL = 'demo@keyward.local';
const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'keyward-demo';
const PRESENCE_REFRESH_MS = 30_000;
const SUSPENSION_MS = 20 * MINUTE;

const WEEKDAYS_AFTER_SCHOOL: RuleSchedule = {
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
  window: { start: { hour: 15, minute: 0 }, end: { hour: 18, minute: 0 } },
};

type DemoState = 'on' | 'suspended' | 'offline';

interface DemoComputer {
  serialNumber: string;
  child: 'sam' | 'kim';
  name: string;
  modelIdentifier: string;
  appVersion: string;
  numericId: number;
  username: string;
  fullUsername: string;
  state: DemoState;
}

const DEMO_COMPUTERS: DemoComputer[] = [
  {
    serialNumber: 'DEMOC02AIR01',
    child: 'sam',
    name: "Sam's MacBook Air",
    modelIdentifier: 'Mac14,2',
    appVersion: '2.4.1',
    numericId: 501,
    username: 'sam',
    fullUsername: 'Sam Demo',
    state: 'on',
  },
  {
    serialNumber: 'DEMOC02IMAC1',
    child: 'kim',
    name: 'Family iMac',
    modelIdentifier: 'iMac21,1',
    appVersion: '2.4.0',
    numericId: 502,
    username: 'kim',
    fullUsername: 'Kim Demo',
    state: 'suspended',
  },
  {
    serialNumber: 'DEMOC02PRO01',
    child: 'kim',
    name: "Kim's old MacBook Pro",
    modelIdentifier: 'MacBookPro16,1',
    appVersion: '2.3.2',
    numericId: 501,
    username: 'kim',
    fullUsername: 'Kim Demo',
    state: 'offline',
  },
];

async function call(
  app: FastifyInstance,
  path: string,
  input: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: demo seeding reads whatever the operation answers
): Promise<any> {
  const response = await app.inject({
    method: 'POST',
    url: `/pairql/${path}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(input),
  });
  if (response.statusCode !== 200) {
    throw new Error(`Demo seeding: ${path} answered ${response.statusCode} ${response.body}`);
  }
  return JSON.parse(response.body);
}

/** Days left in the demo family's trial: under 10, so Settings shows the warning badge. */
export const DEMO_TRIAL_DAYS_LEFT = 5;

/** The demo account is still trialing, with DEMO_TRIAL_DAYS_LEFT days to go (§8.1: the last 3 are expiring-soon). */
async function shortenDemoTrial(db: Db) {
  const untilExpiringSoon = DEMO_TRIAL_DAYS_LEFT - LIFECYCLE_DAYS.trialExpiringSoon;
  await db
    .updateTable('parents')
    .set({
      subscription_status: 'trialing',
      subscription_status_expiration: toDbTime(addMs(new Date(), untilExpiringSoon * DAY)),
    })
    .where('email', '=', DEMO_EMAIL)
    .execute();
}

async function seedDemoFamily(
  app: FastifyInstance,
  db: Db,
  sentEmails: OutgoingEmail[],
  dashboardUrl: string,
) {
  const existing = await db
    .selectFrom('parents')
    .select('id')
    .where('email', '=', DEMO_EMAIL)
    .executeTakeFirst();
  if (existing) return false;

  await call(app, 'dashboard/Signup', { email: DEMO_EMAIL, password: DEMO_PASSWORD });
  const verification = sentEmails.findLast(
    (email) => email.to === DEMO_EMAIL && email.template === 'initial-signup',
  );
  const link = verification?.links
    .map((url) => new URL(url))
    .find((url) => url.pathname.startsWith('/verify-signup-email/'));
  if (!link) throw new Error('Demo seeding: no verification link was sent');
  const { token: session } = await call(app, 'dashboard/VerifySignupEmail', {
    token: link.pathname.split('/').at(-1),
  });
  const asParent = { 'x-admintoken': session };
  await shortenDemoTrial(db);

  const keychains = await seedDemoKeychains(app, asParent);
  await seedDemoNotifications(app, asParent);
  const children = { sam: randomUUID(), kim: randomUUID() };
  await call(
    app,
    'dashboard/SaveUser',
    {
      id: children.sam,
      isNew: true,
      name: 'Sam',
      keyloggingEnabled: true,
      screenshotsEnabled: true,
      screenshotsResolution: 1000,
      screenshotsFrequency: 60,
      showSuspensionActivity: true,
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      keychains: [
        { id: keychains.homework },
        { id: keychains.khanAcademy, schedule: WEEKDAYS_AFTER_SCHOOL },
      ],
      blockedApps: [
        { id: randomUUID(), identifier: 'com.valvesoftware.steam' },
        { id: randomUUID(), identifier: 'Roblox', schedule: WEEKDAYS_AFTER_SCHOOL },
      ],
    },
    asParent,
  );
  await call(
    app,
    'dashboard/SaveUser',
    {
      id: children.kim,
      isNew: true,
      name: 'Kim',
      keyloggingEnabled: false,
      screenshotsEnabled: false,
      screenshotsResolution: 1000,
      screenshotsFrequency: 120,
      showSuspensionActivity: false,
      keychains: [{ id: keychains.homework }, { id: keychains.weekendGames }],
      blockedApps: [{ id: randomUUID(), identifier: 'com.hnc.Discord' }],
    },
    asParent,
  );

  const macTokens = new Map<string, string>();
  for (const computer of DEMO_COMPUTERS) {
    const { code } = await call(
      app,
      'dashboard/CreatePendingAppConnection',
      { userId: children[computer.child] },
      asParent,
    );
    const connected = await call(app, 'macos-app/ConnectUser', {
      verificationCode: code,
      appVersion: computer.appVersion,
      modelIdentifier: computer.modelIdentifier,
      username: computer.username,
      fullUsername: computer.fullUsername,
      numericId: computer.numericId,
      serialNumber: computer.serialNumber,
      osVersion: '14.5.0',
      isAdmin: false,
    });
    macTokens.set(computer.serialNumber, connected.token);
    const row = await db
      .selectFrom('computers')
      .select('id')
      .where('serial_number', '=', computer.serialNumber)
      .executeTakeFirstOrThrow();
    await call(
      app,
      'dashboard/SaveDevice',
      { id: row.id, name: computer.name, releaseChannel: 'stable' },
      asParent,
    );
  }
  await seedDemoRequests(app, macTokens);
  await seedDemoIpad(app, children.kim, asParent);
  await seedDemoActivity(app, (path, input, headers) => call(app, path, input, headers), {
    asParent,
    now: new Date(),
    children: [
      {
        childId: children.sam,
        macToken: macTokens.get('DEMOC02AIR01')!,
        itemsPerDay: 40,
        heavyDayItems: 360,
      },
      { childId: children.kim, macToken: macTokens.get('DEMOC02IMAC1')!, itemsPerDay: 12 },
    ],
  });
  await seedDemoHome((path, input, headers) => call(app, path, input, headers), db, {
    parentEmail: DEMO_EMAIL,
    dashboardUrl,
    macTokens,
    now: new Date(),
  });
  return true;
}

/** Pending requests from the children's Macs: a website and an app (Sam), a suspension (Kim). */
async function seedDemoRequests(app: FastifyInstance, macTokens: Map<string, string>) {
  const asMac = (serialNumber: string) => {
    const token = macTokens.get(serialNumber);
    if (!token) throw new Error(`Demo seeding: no token for the computer ${serialNumber}`);
    return { 'x-usertoken': token };
  };
  await call(
    app,
    'macos-app/CreateUnlockRequests_v3',
    {
      blockedRequests: [
        {
          bundleId: 'com.apple.Safari',
          url: 'https://www.khanacademy.org/science/biology',
          hostname: 'www.khanacademy.org',
        },
      ],
      comment: 'Biology homework, the video for tomorrow',
    },
    asMac('DEMOC02AIR01'),
  );
  await call(
    app,
    'macos-app/CreateUnlockRequests_v3',
    {
      blockedRequests: [{ bundleId: 'us.zoom.xos', hostname: 'zoom.us' }],
      comment: 'Study group call at 5',
    },
    asMac('DEMOC02AIR01'),
  );
  await call(
    app,
    'macos-app/CreateSuspendFilterRequest_v2',
    { duration: 900, comment: 'I need to install a font for my art project' },
    asMac('DEMOC02IMAC1'),
  );
}

/**
 * Kim's iPad: connected with a code like the iOS app, websites limited to two domains, a custom
 * rule (YouTube's app is blocked on its Shorts), and a pending suspension request.
 */
async function seedDemoIpad(app: FastifyInstance, kimId: string, asParent: Record<string, string>) {
  const { code } = await call(
    app,
    'dashboard/CreatePendingAppConnection',
    { userId: kimId },
    asParent,
  );
  const ipad = await call(app, 'ios-app/ConnectDevice', {
    verificationCode: code,
    vendorId: randomUUID(),
    deviceType: 'iPad',
    appVersion: '1.4.0',
    iosVersion: '17.5',
  });
  const device = await call(app, 'dashboard/GetIOSDevice', ipad.deviceId, asParent);
  await call(
    app,
    'dashboard/UpdateIOSDevice',
    {
      deviceId: ipad.deviceId,
      enabledBlockGroups: device.enabledBlockGroups,
      webPolicy: 'blockAllExcept',
      webPolicyDomains: ['khanacademy.org', 'wikipedia.org'],
    },
    asParent,
  );
  await call(
    app,
    'dashboard/UpsertBlockRule',
    {
      deviceId: ipad.deviceId,
      rule: {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'com.google.ios.youtube' },
        b: { case: 'targetContains', value: 'shorts' },
      },
    },
    asParent,
  );
  await call(
    app,
    'ios-app/CreateSuspendFilterRequest',
    { duration: 1200, comment: 'Watching the science video for class' },
    { 'x-devicetoken': ipad.token },
  );
}

/** Two own keychains with keys, and the public Khan Academy keychain from the catalogue. */
async function seedDemoKeychains(app: FastifyInstance, asParent: Record<string, string>) {
  const homework = randomUUID();
  const weekendGames = randomUUID();
  await call(
    app,
    'dashboard/SaveKeychain',
    { isNew: true, id: homework, name: 'Homework', description: 'School sites for every day' },
    asParent,
  );
  await call(
    app,
    'dashboard/SaveKeychain',
    { isNew: true, id: weekendGames, name: 'Weekend games', description: 'Games we agreed on' },
    asParent,
  );
  const keys: { keychainId: string; key: SharedKey; comment?: string }[] = [
    {
      keychainId: homework,
      key: { type: 'anySubdomain', domain: 'quizlet.com', scope: { type: 'webBrowsers' } },
      comment: 'Vocabulary practice',
    },
    {
      keychainId: homework,
      key: { type: 'domain', domain: 'docs.google.com', scope: { type: 'webBrowsers' } },
    },
    {
      keychainId: homework,
      key: { type: 'skeleton', scope: { type: 'bundleId', bundleId: 'com.apple.iWork.Pages' } },
      comment: 'Writing assignments',
    },
    {
      keychainId: weekendGames,
      key: { type: 'anySubdomain', domain: 'coolmathgames.com', scope: { type: 'webBrowsers' } },
    },
    {
      keychainId: weekendGames,
      key: {
        type: 'skeleton',
        scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'minecraft' },
      },
    },
  ];
  for (const key of keys) {
    await call(app, 'dashboard/SaveKey', { isNew: true, id: randomUUID(), ...key }, asParent);
  }
  const selectable = await call(app, 'dashboard/GetSelectableKeychains', undefined, asParent);
  const khanAcademy = (selectable.public as { id: string; name: string }[]).find(
    (keychain) => keychain.name === 'Khan Academy',
  );
  if (!khanAcademy) throw new Error('Demo seeding: the public Khan Academy keychain is missing');
  return { homework, weekendGames, khanAcademy: khanAcademy.id };
}

/**
 * DEMO ONLY: there are no real Macs behind the demo computers, so this stands in for their
 * heartbeats and re-stamps the presence of the 'online' ones (through the same presence code the
 * push channel uses). The suspended one resumes filtering 20 minutes after start, like a Mac would.
 */
function keepDemoComputersOnline(db: Db, startedAt: Date, log: FastifyInstance['log']) {
  const resuming = addMs(startedAt, SUSPENSION_MS);
  const stamp = async () => {
    const now = new Date();
    const rows = await db
      .selectFrom('computer_users as cu')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .innerJoin('parents as p', 'p.id', 'c.parent_id')
      .select(['cu.id', 'c.serial_number'])
      .where('p.email', '=', DEMO_EMAIL)
      .execute();
    for (const row of rows) {
      const demo = DEMO_COMPUTERS.find((c) => c.serialNumber === row.serial_number);
      if (!demo || demo.state === 'offline') continue;
      const state: FilterState =
        demo.state === 'suspended' && now < resuming
          ? { case: 'suspended', resuming: resuming.toISOString() }
          : { case: 'on' };
      await recordDeviceMessage(db, row.id, { case: 'currentFilterState_v2', state }, now);
    }
  };
  const run = () => stamp().catch((error) => log.warn({ err: error }, 'demo presence failed'));
  const timer = setInterval(run, PRESENCE_REFRESH_MS);
  timer.unref();
  return { first: run(), stop: () => clearInterval(timer) };
}

/** Email notifications for unlock and suspension requests, to the demo address (verified at signup). */
async function seedDemoNotifications(app: FastifyInstance, asParent: Record<string, string>) {
  const admin = await call(app, 'dashboard/GetAdmin', undefined, asParent);
  const method = admin.verifiedNotificationMethods.find(
    (m: { config: { case: string; email?: string } }) =>
      m.config.case === 'email' && m.config.email === DEMO_EMAIL,
  );
  if (!method) throw new Error('Demo seeding: no email notification method for the demo address');
  for (const trigger of ['unlockRequestSubmitted', 'suspendFilterRequestSubmitted']) {
    await call(
      app,
      'dashboard/SaveNotification',
      { id: randomUUID(), isNew: true, methodId: method.id, trigger },
      asParent,
    );
  }
}

/**
 * Issue 31: the seeding sends two weeks of a family's activity through the public API within
 * seconds, far beyond what a child's device may send a minute (issue 19). It runs on an app of its
 * own whose budgets are this many times larger, and what it counted is cleared before the demo
 * serves, so the demo's own budgets (RATE_LIMIT_SCALE, 1 in production) start from nothing:
 * `RATE_LIMIT_SCALE=1 npm run demo` seeds as well as the default.
 */
const SEEDING_RATE_LIMIT_SCALE = 1000;

/**
 * Seeds the demo family unless it exists; true when it was seeded now. `forwardTo` makes the mailer
 * the seeding's emails also go to (the demo's own outbox or SMTP), from the seeding app's log.
 */
export async function seedDemo(
  config: Config,
  db: Db,
  forwardTo: (log: FastifyBaseLogger) => Mailer | undefined = () => undefined,
): Promise<boolean> {
  const sentEmails: OutgoingEmail[] = [];
  let forward: Mailer | undefined;
  const seeding = await buildApp({
    config: {
      ...config,
      rateLimitScale: Math.max(config.rateLimitScale, SEEDING_RATE_LIMIT_SCALE),
    },
    db,
    mailer: {
      async send(email) {
        sentEmails.push(email);
        await forward?.send(email);
      },
    },
  });
  forward = forwardTo(seeding.log);
  try {
    await seeding.ready();
    return await seedDemoFamily(seeding, db, sentEmails, config.dashboardUrls[0]!);
  } finally {
    // its scheduled jobs stop here, before the demo's own app starts them
    await seeding.close();
    // what the seeding counted is no one's budget
    await db.deleteFrom('rate_limit_counters').execute();
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig({
      // generous for whoever tries the demo; the seeding has its own budgets (seedDemo)
      RATE_LIMIT_SCALE: '1000',
      ...process.env,
      DATA_DIR: process.env.DATA_DIR ?? './data/demo',
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const db = createDatabase(config);
  await migrateToLatest(db, dialectOf(config));
  const isNewFamily = await seedDemo(config, db, (log) => createMailer(config, log));

  let forward: Mailer | undefined;
  const app = await buildApp({
    config,
    db,
    mailer: {
      async send(email) {
        await forward?.send(email);
      },
    },
  });
  forward = createMailer(config, app.log);
  app.addHook('onClose', async () => db.destroy());
  await app.ready();
  const presence = keepDemoComputersOnline(db, new Date(), app.log);
  await presence.first;

  const url = await listenUntilStopped(app, config, () => presence.stop());
  console.log(`Keyward demo is running at ${url} (data: ${config.dataDir})`);
  console.log(
    `${isNewFamily ? 'Seeded the demo family. ' : ''}Demo parent: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`,
  );
}

// run as `npm run demo`; imported (tests), it only exports seedDemo
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
