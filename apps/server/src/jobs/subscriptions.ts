import {
  type AccountStatus,
  checksStripeOnExpiry,
  type LifecycleEmail,
  type LifecycleStep,
  LIFECYCLE_DAYS,
  stepOnExpiry,
  TRIAL_LENGTH_DAYS,
} from '@keyward/domain/subscription';
import type { FastifyBaseLogger } from 'fastify';
import { billedStatus } from '../accounts/subscription-status.ts';
import type { BillingService } from '../services/billing.ts';
import type { Db } from '../db/database.ts';
import { toDbJson, toDbTime } from '../db/values.ts';
import type { EmailService } from '../services/mail.ts';
import { newToken } from '../services/tokens.ts';
import { claimJobRun, dailyRunKey, finishJobRun, releaseJobRun } from './claim.ts';

// The daily subscription job (server-behaviour §8.1, §9), 06:30 UTC: every account whose status
// expiration has passed moves on one step of the lifecycle (packages/domain/src/subscription.ts),
// with its email. Idempotent: an account is only moved from the status it was read in.
// With BILLING=off nobody pays: only unverified signups are removed (after 3 days); every other
// account waits, whatever its stored status (accounts/subscription-status.ts).

export const SUBSCRIPTIONS_JOB = 'subscriptions';

export interface SubscriptionJobDeps {
  db: Db;
  billing: BillingService;
  email: EmailService;
  log: FastifyBaseLogger;
  /** Base of the links in the emails (the default dashboard URL). */
  dashboardUrl: string;
}

export interface SubscriptionReport {
  /** `from→to` (or `from→deleted`) → number of accounts. */
  transitions: Record<string, number>;
  emails: number;
  /** Accounts left for the next run because Stripe could not be asked. */
  skipped: number;
}

export async function runDailySubscriptions(
  deps: SubscriptionJobDeps,
  now: Date,
): Promise<SubscriptionReport | null> {
  const runKey = dailyRunKey(now);
  if (!(await claimJobRun(deps.db, SUBSCRIPTIONS_JOB, runKey, now))) return null;
  try {
    const report = await runSubscriptions(deps, now);
    await finishJobRun(deps.db, SUBSCRIPTIONS_JOB, runKey, new Date());
    return report;
  } catch (error) {
    await releaseJobRun(deps.db, SUBSCRIPTIONS_JOB, runKey);
    throw error;
  }
}

/** One pass as of `now` (the clock is injected so tests can move it). */
export async function runSubscriptions(
  deps: SubscriptionJobDeps,
  now: Date,
): Promise<SubscriptionReport> {
  const { db } = deps;
  const report: SubscriptionReport = { transitions: {}, emails: 0, skipped: 0 };
  const due = await db
    .selectFrom('parents')
    .select([
      'id',
      'email',
      'subscription_id',
      'subscription_status',
      'subscription_status_expiration',
    ])
    .where('subscription_status', '!=', 'complimentary')
    .$if(deps.billing.mode === 'off', (query) =>
      query.where('subscription_status', '=', 'pendingEmailVerification'),
    )
    .where('subscription_status_expiration', '<=', toDbTime(now))
    .orderBy('subscription_status_expiration')
    .execute();

  for (const parent of due) {
    let activeSubscriptionPeriodEnd: Date | undefined;
    if (checksStripeOnExpiry(parent.subscription_status) && parent.subscription_id !== null) {
      try {
        const subscription = await deps.billing.subscription(parent.subscription_id);
        if (subscription.status === 'active') {
          activeSubscriptionPeriodEnd = subscription.periodEnd ?? now;
        }
      } catch (error) {
        deps.log.error(
          { err: error, parentId: parent.id },
          'subscription job: Stripe check failed; the account waits for the next run',
        );
        report.skipped += 1;
        continue;
      }
    }
    const isOnboarded = await hasConnectedComputer(db, parent.id);
    const step = stepOnExpiry(
      {
        status: billedStatus(parent.subscription_status, deps.billing.mode),
        expiration: new Date(parent.subscription_status_expiration),
      },
      { now, isOnboarded, activeSubscriptionPeriodEnd },
    );
    if (step.kind === 'wait') continue;
    const applied = await apply(db, parent, step, now);
    if (!applied) continue;
    const key = `${parent.subscription_status}→${step.kind === 'delete' ? 'deleted' : step.status}`;
    report.transitions[key] = (report.transitions[key] ?? 0) + 1;
    if (step.email && (await sendEmail(deps, parent.email, step.email))) report.emails += 1;
  }
  return report;
}

async function hasConnectedComputer(db: Db, parentId: string): Promise<boolean> {
  const row = await db
    .selectFrom('computer_users as cu')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .select('cu.id')
    .where('c.parent_id', '=', parentId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** false when another run moved the account first. */
async function apply(
  db: Db,
  parent: { id: string; subscription_status: AccountStatus },
  step: Exclude<LifecycleStep, { kind: 'wait' }>,
  now: Date,
): Promise<boolean> {
  if (step.kind === 'update') {
    const result = await db
      .updateTable('parents')
      .set({
        subscription_status: step.status,
        subscription_status_expiration: toDbTime(step.expiration),
        updated_at: toDbTime(now),
      })
      .where('id', '=', parent.id)
      .where('subscription_status', '=', parent.subscription_status)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('parents')
      .selectAll()
      .where('id', '=', parent.id)
      .where('subscription_status', '=', parent.subscription_status)
      .executeTakeFirst();
    if (!row) return false;
    const { password_hash: _secret, ...record } = row;
    await trx
      .insertInto('deleted_entities')
      .values({
        id: newToken(),
        type: 'Admin',
        reason: step.reason,
        data: toDbJson(record),
        created_at: toDbTime(now),
      })
      .execute();
    await trx.deleteFrom('parents').where('id', '=', parent.id).execute();
    return true;
  });
}

async function sendEmail(
  deps: SubscriptionJobDeps,
  to: string,
  email: LifecycleEmail,
): Promise<boolean> {
  const settingsUrl = `${deps.dashboardUrl}/settings`;
  try {
    switch (email) {
      case 'delete-email-unverified':
        await deps.email.send(email, to, { signupUrl: `${deps.dashboardUrl}/signup` });
        break;
      case 'trial-ending-soon':
        await deps.email.send(email, to, {
          trialLengthDays: TRIAL_LENGTH_DAYS,
          daysRemaining: LIFECYCLE_DAYS.trialExpiringSoon,
          url: settingsUrl,
        });
        break;
      case 'unpaid-to-pending-delete':
        await deps.email.send(email, to, {
          url: settingsUrl,
          daysUntilDeletion: LIFECYCLE_DAYS.pendingAccountDeletion,
        });
        break;
      default:
        await deps.email.send(email, to, { url: settingsUrl });
    }
    return true;
  } catch (error) {
    deps.log.error({ err: error, to, email }, 'subscription job: email failed');
    return false;
  }
}
