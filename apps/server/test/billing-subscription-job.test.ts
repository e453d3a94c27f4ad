import { afterAll, describe, expect, test } from 'vitest';
import { createBillingService } from '../src/billing/stripe-service.ts';
import { runDailySubscriptions, type SubscriptionJobDeps } from '../src/jobs/subscriptions.ts';
import { createEmailService } from '../src/services/mail.ts';
import { cancelSubscriptionInPortal, subscribe } from './billing-helpers.ts';
import { connectedMac, deviceCall } from './fixtures.ts';
import { createTestServer, uniqueEmail } from './harness.ts';

// The daily subscription job (server-behaviour §8.1) over 450 simulated days, run once a day on an
// injected clock, against the billing simulator: a paying parent, one who stops paying, one who
// never pays (onboarded, so every email goes out), one who never pays and never connected a Mac
// (only the emails that don't need onboarding), and one who never verified their email.

const server = await createTestServer();
afterAll(() => server.close());

const DAY = 86_400_000;
const LIFECYCLE_EMAILS = new Set([
  'delete-email-unverified',
  'trial-ending-soon',
  'trial-ended-to-overdue',
  'overdue-to-unpaid',
  'paid-to-overdue',
  'unpaid-to-pending-delete',
]);

const deps: SubscriptionJobDeps = {
  db: server.db,
  billing: createBillingService({
    config: server.config,
    clock: server.clock,
    log: server.app.log,
    inject: (request) => server.app.inject(request),
  }),
  email: createEmailService(
    { send: async (mail) => void server.mails.push(mail) },
    server.config,
    server.clock,
  ),
  log: server.app.log,
  dashboardUrl: server.config.dashboardUrls[0]!,
};

const start = server.clock.now().getTime();
const dayOf = () => Math.round((server.clock.now().getTime() - start) / DAY);

async function statusOf(id: string) {
  const row = await server.db
    .selectFrom('parents')
    .select('subscription_status')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.subscription_status ?? 'deleted';
}

function lifecycleEmailsTo(address: string) {
  return server.mails
    .filter((mail) => mail.to === address && LIFECYCLE_EMAILS.has(mail.template))
    .map((mail) => mail.template);
}

describe('the subscription job over 450 days', async () => {
  const paying = await server.signUpVerifiedParent();
  const lapsing = await server.signUpVerifiedParent();
  const neverPaying = await server.signUpVerifiedParent();
  const quiet = await server.signUpVerifiedParent();
  const unverifiedEmail = uniqueEmail('unverified');
  expect(
    (await server.call('Signup', { email: unverifiedEmail, password: 'secret-1234' })).status,
  ).toBe(200);
  const unverifiedId = (
    await server.db
      .selectFrom('parents')
      .select('id')
      .where('email', '=', unverifiedEmail)
      .executeTakeFirstOrThrow()
  ).id;

  await connectedMac(server, paying.adminId);
  await connectedMac(server, lapsing.adminId);
  const mac = await connectedMac(server, neverPaying.adminId);

  const parents = { paying, lapsing, neverPaying, quiet } as const;
  const timeline: Record<string, string[]> = {
    paying: [],
    lapsing: [],
    neverPaying: [],
    quiet: [],
    unverified: [],
  };
  const appStatus: Record<number, unknown> = {};
  const record = async () => {
    for (const [name, parent] of Object.entries(parents)) {
      const status = await statusOf(parent.adminId);
      if (timeline[name]!.at(-1)?.split(' ')[1] !== status)
        timeline[name]!.push(`${dayOf()} ${status}`);
    }
    const unverified = await statusOf(unverifiedId);
    if (timeline.unverified!.at(-1)?.split(' ')[1] !== unverified)
      timeline.unverified!.push(`${dayOf()} ${unverified}`);
  };
  await record();

  let runs = 0;
  for (let day = 1; day <= 450; day += 1) {
    server.clock.advance(DAY);
    if (day === 2) {
      await subscribe(server, paying);
      await subscribe(server, lapsing);
    }
    if (day === 45) {
      // the day-0 session has expired by now: the parent logs in again
      const login = await server.call('Login', {
        email: lapsing.email,
        password: lapsing.password,
      });
      expect(login.status).toBe(200);
      await cancelSubscriptionInPortal(server, login.body);
    }
    const report = await runDailySubscriptions(deps, server.clock.now());
    if (report) runs += 1;
    if ([10, 22, 30, 424].includes(day)) {
      const checkIn = await deviceCall(server, 'CheckIn_v2', mac.token, { appVersion: '2.4.0' });
      appStatus[day] = checkIn.status === 200 ? checkIn.body.adminAccountStatus : checkIn.status;
    }
    await record();
  }

  test('runs once per simulated day', () => {
    expect(runs).toBe(450);
  });

  test('a paying parent stays paid the whole time, and hears nothing', () => {
    expect(timeline.paying).toEqual(['0 trialing', '2 paid']);
    expect(lifecycleEmailsTo(paying.email)).toEqual([]);
  });

  test('a parent who cancels: paid to the period end + 2 days, 14 days overdue, then a year unpaid', () => {
    // subscribed on day 2 (30-day periods: day 32, 62, …), cancelled on day 45 → period ends day 62
    expect(timeline.lapsing).toEqual([
      '0 trialing',
      '2 paid',
      '64 overdue',
      '78 unpaid',
      '443 pendingAccountDeletion',
    ]);
    expect(lifecycleEmailsTo(lapsing.email)).toEqual([
      'paid-to-overdue',
      'overdue-to-unpaid',
      'unpaid-to-pending-delete',
    ]);
  });

  test('a parent who never pays: the 21-day trial, 7 days grace, a year unpaid, 30 days, deleted', async () => {
    expect(timeline.neverPaying).toEqual([
      '0 trialing',
      '18 trialExpiringSoon',
      '21 overdue',
      '28 unpaid',
      '393 pendingAccountDeletion',
      '423 deleted',
    ]);
    expect(lifecycleEmailsTo(neverPaying.email)).toEqual([
      'trial-ending-soon',
      'trial-ended-to-overdue',
      'overdue-to-unpaid',
      'unpaid-to-pending-delete',
    ]);
    const trialEnding = server.mails.find(
      (mail) => mail.to === neverPaying.email && mail.template === 'trial-ending-soon',
    )!;
    expect(trialEnding.text).toContain('21-day free trial ends in 3 days');
    expect(trialEnding.links).toContain(`${server.config.dashboardUrls[0]}/settings`);
    const record = await server.db
      .selectFrom('deleted_entities')
      .select(['type', 'reason', 'data'])
      .where('reason', '=', 'account unpaid > 1yr')
      .execute();
    expect(record).toHaveLength(2); // neverPaying and quiet
    expect(JSON.stringify(record.map((r) => r.data))).toContain(neverPaying.email);
    expect(JSON.stringify(record.map((r) => r.data))).not.toContain('password_hash');
  });

  test("the child's Mac follows the account: active, needs attention, inactive, then signed out", () => {
    expect(appStatus).toEqual({ 10: 'active', 22: 'needsAttention', 30: 'inactive', 424: 401 });
  });

  test('a parent who never connected a Mac only gets the emails that need no onboarding', () => {
    expect(timeline.quiet).toEqual(timeline.neverPaying);
    expect(lifecycleEmailsTo(quiet.email)).toEqual(['trial-ending-soon']);
  });

  test('an unverified account is deleted 3 days after signup, with an email', async () => {
    expect(timeline.unverified).toEqual(['0 pendingEmailVerification', '3 deleted']);
    expect(lifecycleEmailsTo(unverifiedEmail)).toEqual(['delete-email-unverified']);
    const record = await server.db
      .selectFrom('deleted_entities')
      .select('reason')
      .where('reason', '=', 'email unverified > 3 days')
      .execute();
    expect(record).toHaveLength(1);
  });
});

describe('claiming the day', () => {
  test('a second run on the same day (another instance) does nothing', async () => {
    server.clock.advance(DAY);
    const now = server.clock.now();
    const [first, second] = await Promise.all([
      runDailySubscriptions(deps, now),
      runDailySubscriptions(deps, now),
    ]);
    expect([first, second].filter((report) => report === null)).toHaveLength(1);
    expect(await runDailySubscriptions(deps, new Date(now.getTime() + 60_000))).toBeNull();
  });
});
