import { DNS_SILENT_AFTER_MS } from '@keyward/domain/dns-status';
import { DNS_SECURITY_EVENT_NAMES } from '@keyward/domain/security-events';
import { sql } from 'kysely';
import { DAY, toDbTime } from '../db/values.ts';
import type { NotifyContext } from '../notifications/dispatch.ts';
import { notifyAboutChild } from '../notifications/child-writes.ts';
import { newToken } from '../services/tokens.ts';
import { claimJobRun, finishJobRun, releaseJobRun } from './claim.ts';

// Issue 33: a Keyward DNS device that was in use (it asked at least one name) and has been silent
// for a day raises the security event `dnsDeviceSilent`, with its notification (trigger
// adminChildSecurityEvent, grouped per child as every device event): a child who removed the
// profile or changed the Private DNS setting looks exactly like that. One event per silence: a
// device that asks again and falls silent again raises another. Hourly; each hour's run is claimed
// by one instance (job_runs). Devices silent for more than LOOK_BACK_MS are not looked at again
// (they were told about when they fell silent, or before this job existed).

declare module 'fastify' {
  interface FastifyInstance {
    /** runs the DNS silence job now (tests; the scheduler runs it hourly) */
    runDnsSilence(now: Date): Promise<number | undefined>;
  }
}

export const DNS_SILENCE_JOB = 'dnsSilence';
export const DNS_SILENCE_SCHEDULE = '17 * * * *';
const LOOK_BACK_MS = 7 * DAY;
/** a run tells about this many devices at most (the rest wait for the next hour) */
const MAX_PER_RUN = 5_000;

export async function runDnsSilence(ctx: NotifyContext, now: Date): Promise<number | undefined> {
  const runKey = now.toISOString().slice(0, 13);
  if (!(await claimJobRun(ctx.db, DNS_SILENCE_JOB, runKey, now))) return undefined;
  try {
    const event = DNS_SECURITY_EVENT_NAMES.deviceSilent;
    const silent = await ctx.db
      .selectFrom('device_presence as p')
      .innerJoin('computer_users as cu', 'cu.id', 'p.computer_user_id')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .innerJoin('children as ch', 'ch.id', 'cu.child_id')
      .select(['cu.id', 'cu.child_id', 'ch.parent_id', 'c.custom_name', 'p.last_seen_at'])
      .where('c.kind', '=', 'dns')
      .where('p.last_seen_at', '<=', toDbTime(new Date(now.getTime() - DNS_SILENT_AFTER_MS)))
      .where('p.last_seen_at', '>', toDbTime(new Date(now.getTime() - LOOK_BACK_MS)))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('security_events as e')
              .select(sql.lit(1).as('one'))
              .whereRef('e.computer_user_id', '=', 'cu.id')
              .where('e.event', '=', event)
              .whereRef('e.created_at', '>=', 'p.last_seen_at'),
          ),
        ),
      )
      .orderBy('p.last_seen_at')
      .limit(MAX_PER_RUN)
      .execute();
    for (const device of silent) {
      await ctx.db
        .insertInto('security_events')
        .values({
          id: newToken(),
          parent_id: device.parent_id,
          computer_user_id: device.id,
          event,
          detail: device.custom_name,
          ip_address: null,
          created_at: toDbTime(now),
        })
        .execute();
      notifyAboutChild(ctx, {
        trigger: 'adminChildSecurityEvent',
        parentId: device.parent_id,
        childId: device.child_id,
        at: now,
      });
    }
    await finishJobRun(ctx.db, DNS_SILENCE_JOB, runKey, new Date());
    return silent.length;
  } catch (error) {
    await releaseJobRun(ctx.db, DNS_SILENCE_JOB, runKey);
    throw error;
  }
}
