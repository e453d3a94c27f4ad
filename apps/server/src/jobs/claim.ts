import type { Db } from '../db/database.ts';
import { toDbTime } from '../db/values.ts';

// server-behaviour §9: each daily run executes on exactly one instance. The run is claimed by
// inserting (job, run_key) into job_runs; the primary key makes every later claim a no-op.

/** The UTC calendar day of `now`, e.g. `2026-11-23`: one run per job and day. */
export function dailyRunKey(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** true when this caller won the run; false when another instance (or an earlier call) has it. */
export async function claimJobRun(db: Db, job: string, runKey: string, now: Date) {
  const result = await db
    .insertInto('job_runs')
    .values({ job, run_key: runKey, started_at: toDbTime(now), finished_at: null })
    .onConflict((oc) => oc.columns(['job', 'run_key']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

export async function finishJobRun(db: Db, job: string, runKey: string, now: Date) {
  await db
    .updateTable('job_runs')
    .set({ finished_at: toDbTime(now) })
    .where('job', '=', job)
    .where('run_key', '=', runKey)
    .execute();
}

/** A failed run gives its claim back, so a retry (or another instance) can run it again. */
export async function releaseJobRun(db: Db, job: string, runKey: string) {
  await db.deleteFrom('job_runs').where('job', '=', job).where('run_key', '=', runKey).execute();
}
