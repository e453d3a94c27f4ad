import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { usedMinutesBetween } from '../children/screen-time.ts';
import type { Db } from '../db/database.ts';
import { CATALOGUE_PARENT_ID } from '../db/migrations/0003_public_keychains.ts';
import { addMs, DAY, toDbBool, toDbTime } from '../db/values.ts';
import type { EmailService } from '../services/mail.ts';
import type { ChildWeek } from '../services/mail-templates.ts';
import { safeEqual, type TokenService } from '../services/tokens.ts';
import { claimJobRun, finishJobRun, releaseJobRun } from './claim.ts';

// Issue 23: the weekly report email. On by default; sent to the account's address on Sunday at
// 18:00 in the family's time zone (the one the dashboard last reported; UTC until then). The job
// runs every hour on every instance; a family's report of a given local Sunday is claimed once in
// job_runs (`weekly-report`, `{parentId}:{local date}`), so two instances never both send it. A
// failed send gives the claim back, so the next hourly run of that evening tries again.
// One click stops it: the signed link of the email and its RFC 8058 List-Unsubscribe headers
// (http/weekly-report.ts).

export const WEEKLY_REPORT_JOB = 'weekly-report';
export const WEEKLY_REPORT_SCHEDULE = '2 * * * *'; // every hour, just past the hour
/** Sunday, 18:00 to 23:59 local: a missed hour is caught up the same evening. */
export const WEEKLY_REPORT_DAY = 'Sun';
export const WEEKLY_REPORT_FROM_HOUR = 18;

/** Families whose accounts are gone or never started get nothing. */
const ACTIVE_STATUSES = [
  'trialing',
  'trialExpiringSoon',
  'paid',
  'overdue',
  'unpaid',
  'complimentary',
] as const;

export interface WeeklyReportDeps {
  db: Db;
  config: Pick<Config, 'dashboardUrls' | 'publicUrl'>;
  email: EmailService;
  tokens: TokenService;
  log: FastifyBaseLogger;
}

/** The local weekday, hour and date of `now` in `timeZone` (an unknown zone counts as UTC). */
export function localTime(now: Date, timeZone: string | null) {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timeZone ?? 'UTC',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    return localTime(now, 'UTC');
  }
  const parts = Object.fromEntries(format.formatToParts(now).map((p) => [p.type, p.value]));
  return {
    weekday: parts.weekday ?? '',
    hour: Number(parts.hour),
    date: `${parts.year}-${parts.month}-${parts.day}`,
  };
}

export function isReportTime(now: Date, timeZone: string | null): boolean {
  const local = localTime(now, timeZone);
  return local.weekday === WEEKLY_REPORT_DAY && local.hour >= WEEKLY_REPORT_FROM_HOUR;
}

/** The signed one-click link: it stops this family's report, nothing else. */
export function unsubscribeUrl(
  deps: Pick<WeeklyReportDeps, 'config' | 'tokens'>,
  parentId: string,
) {
  const signature = deps.tokens.hmac(`weekly-report-unsubscribe|${parentId}`);
  return `${deps.config.publicUrl}/weekly-report/unsubscribe?family=${parentId}&signature=${signature}`;
}

// ChildWeek (what each child did) is the weekly-report email's input: it lives with the template.
export type { ChildWeek };

/** What each child did in the 7 days before `now`. */
export async function familyWeek(db: Db, parentId: string, now: Date): Promise<ChildWeek[]> {
  const since = toDbTime(addMs(now, -7 * DAY));
  const children = await db
    .selectFrom('children')
    .select(['id', 'name'])
    .where('parent_id', '=', parentId)
    .orderBy('name')
    .execute();
  const weeks: ChildWeek[] = [];
  for (const child of children) {
    const users = db.selectFrom('computer_users').select('id').where('child_id', '=', child.id);
    const devices = db.selectFrom('ios_devices').select('id').where('child_id', '=', child.id);
    const count = async (query: Promise<{ n: number | string | bigint } | undefined>) =>
      Number((await query)?.n ?? 0);
    const unlock = db
      .selectFrom('unlock_requests')
      .where('computer_user_id', 'in', users)
      .where('created_at', '>=', since);
    const screenshots = db
      .selectFrom('screenshots')
      .where((eb) =>
        eb.or([eb('computer_user_id', 'in', users), eb('ios_device_id', 'in', devices)]),
      )
      .where('uploaded_at', 'is not', null)
      .where('created_at', '>=', since);
    const lines = db
      .selectFrom('keystroke_lines')
      .where('computer_user_id', 'in', users)
      .where('created_at', '>=', since);
    weeks.push({
      name: child.name,
      unlockRequests: await count(
        unlock.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
      ),
      pendingUnlockRequests: await count(
        unlock
          .where('status', '=', 'pending')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ),
      suspensionRequests:
        (await count(
          db
            .selectFrom('mac_suspend_filter_requests')
            .where('computer_user_id', 'in', users)
            .where('created_at', '>=', since)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst(),
        )) +
        (await count(
          db
            .selectFrom('ios_suspend_filter_requests')
            .where('device_id', 'in', devices)
            .where('created_at', '>=', since)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst(),
        )),
      activityToReview:
        (await count(
          screenshots
            .where('deleted_at', 'is', null)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst(),
        )) +
        (await count(
          lines
            .where('deleted_at', 'is', null)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst(),
        )),
      flaggedItems:
        (await count(
          screenshots
            .where('flagged', 'is not', null)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst(),
        )) +
        (await count(
          lines
            .where('flagged', 'is not', null)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirst(),
        )),
      alerts: await count(
        lines
          .where('alerted_at', 'is not', null)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ),
      securityEvents: await count(
        db
          .selectFrom('security_events')
          .where('parent_id', '=', parentId)
          .where('computer_user_id', 'in', users)
          .where('created_at', '>=', since)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst(),
      ), // issue 34: the week's screen time, each minute once over the child's browsers
      screenTimeMinutes: await usedMinutesBetween(db, child.id, addMs(now, -7 * DAY), now),
    });
  }
  return weeks;
}

/** Sends the reports due at `now`; returns how many went out. */
export async function runWeeklyReports(deps: WeeklyReportDeps, now: Date): Promise<number> {
  const families = await deps.db
    .selectFrom('parents')
    .select(['id', 'email', 'time_zone'])
    .where('weekly_report', '=', toDbBool(true))
    .where('subscription_status', 'in', ACTIVE_STATUSES)
    // issue 32: internal accounts (the public catalogue's owner, any `.invalid` address, which
    // RFC 2606 reserves for names that can never be reached) get no mail
    .where('id', '!=', CATALOGUE_PARENT_ID)
    .where('email', 'not like', '%.invalid')
    .execute();
  let sent = 0;
  for (const family of families) {
    if (!isReportTime(now, family.time_zone)) continue;
    const runKey = `${family.id}:${localTime(now, family.time_zone).date}`;
    if (!(await claimJobRun(deps.db, WEEKLY_REPORT_JOB, runKey, now))) continue;
    try {
      const children = await familyWeek(deps.db, family.id, now);
      const stop = unsubscribeUrl(deps, family.id);
      await deps.email.send(
        'weekly-report',
        family.email,
        {
          children,
          url: deps.config.dashboardUrls[0] as string,
          unsubscribeUrl: stop,
        },
        {
          headers: {
            'List-Unsubscribe': `<${stop}>`,
            'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          },
        },
      );
      await finishJobRun(deps.db, WEEKLY_REPORT_JOB, runKey, now);
      sent++;
    } catch (error) {
      await releaseJobRun(deps.db, WEEKLY_REPORT_JOB, runKey);
      deps.log.error({ err: error, parentId: family.id }, 'weekly report failed');
    }
  }
  return sent;
}

/** The one-click stop: true when the link is this family's genuine one. */
export async function stopWeeklyReport(
  deps: Pick<WeeklyReportDeps, 'db' | 'tokens'>,
  parentId: string,
  signature: string,
  now: Date,
): Promise<boolean> {
  const expected = deps.tokens.hmac(`weekly-report-unsubscribe|${parentId}`);
  // issue 31: in constant time, like every other signature
  if (!safeEqual(signature, expected)) return false;
  await deps.db
    .updateTable('parents')
    .set({ weekly_report: toDbBool(false), updated_at: toDbTime(now) })
    .where('id', '=', parentId)
    .execute();
  return true;
}
