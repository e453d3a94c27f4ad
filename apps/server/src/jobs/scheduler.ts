import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { BillingService } from '../services/billing.ts';
import type { Clock } from '../services/clock.ts';
import type { EmailService } from '../services/mail.ts';
import type { ScreenshotStorage } from '../services/storage.ts';
import type { NotifyContext } from '../notifications/dispatch.ts';
import { DNS_SILENCE_JOB, DNS_SILENCE_SCHEDULE, runDnsSilence } from './dns-silence.ts';
import { RETENTION_JOB, runDailyRetention } from './retention.ts';
import { runDailySubscriptions, SUBSCRIPTIONS_JOB } from './subscriptions.ts';
import type { TokenService } from '../services/tokens.ts';
import { runWeeklyReports, WEEKLY_REPORT_JOB, WEEKLY_REPORT_SCHEDULE } from './weekly-report.ts';

// server-behaviour §9: the daily jobs run on schedule in every mode except `test` (tests call them
// on demand with an injected clock). Every instance schedules them; the job_runs claim lets exactly
// one of them do each day's run.

export const RETENTION_SCHEDULE = '30 2 * * *'; // 02:30 UTC
export const SUBSCRIPTIONS_SCHEDULE = '30 6 * * *'; // 06:30 UTC

/** What /metrics offers when it is on (http/metrics.ts decorates the app with it). */
export interface JobRunMetrics {
  jobRun(job: string, outcome: 'ok' | 'failed' | 'skipped', seconds: number): void;
}

export interface JobDeps {
  db: Db;
  config: Config;
  clock: Clock;
  storage: ScreenshotStorage;
  billing: BillingService;
  email: EmailService;
  tokens: TokenService;
  log: FastifyBaseLogger;
  /** issue 33: what the DNS silence job notifies parents with */
  notify?: NotifyContext;
  /** Reports each run to /metrics when it is on. */
  onRun?: (job: string, outcome: 'ok' | 'failed' | 'skipped', seconds: number) => void;
}

/** Starts the schedules; returns the function that stops them (none in test mode). */
export function startScheduledJobs(deps: JobDeps): () => void {
  if (deps.config.mode === 'test') return () => {};
  const retention = new Cron(
    RETENTION_SCHEDULE,
    { timezone: 'UTC', name: RETENTION_JOB, protect: true },
    async () => {
      const started = Date.now();
      try {
        const report = await runDailyRetention(
          { db: deps.db, storage: deps.storage, mode: deps.config.mode },
          deps.clock.now(),
        );
        const seconds = (Date.now() - started) / 1000;
        if (report) deps.log.info({ job: RETENTION_JOB, report, seconds }, 'retention job done');
        else deps.log.info({ job: RETENTION_JOB }, 'retention already run today by an instance');
        deps.onRun?.(RETENTION_JOB, report ? 'ok' : 'skipped', seconds);
      } catch (error) {
        deps.log.error({ err: error, job: RETENTION_JOB }, 'retention job failed');
        deps.onRun?.(RETENTION_JOB, 'failed', (Date.now() - started) / 1000);
      }
    },
  );
  const subscriptions = new Cron(
    SUBSCRIPTIONS_SCHEDULE,
    { timezone: 'UTC', name: SUBSCRIPTIONS_JOB, protect: true },
    async () => {
      const started = Date.now();
      try {
        const report = await runDailySubscriptions(
          {
            db: deps.db,
            billing: deps.billing,
            email: deps.email,
            log: deps.log,
            dashboardUrl: deps.config.dashboardUrls[0]!,
          },
          deps.clock.now(),
        );
        const seconds = (Date.now() - started) / 1000;
        if (report)
          deps.log.info({ job: SUBSCRIPTIONS_JOB, report, seconds }, 'subscription job done');
        else
          deps.log.info(
            { job: SUBSCRIPTIONS_JOB },
            'subscriptions already run today by an instance',
          );
        deps.onRun?.(SUBSCRIPTIONS_JOB, report ? 'ok' : 'skipped', seconds);
      } catch (error) {
        deps.log.error({ err: error, job: SUBSCRIPTIONS_JOB }, 'subscription job failed');
        deps.onRun?.(SUBSCRIPTIONS_JOB, 'failed', (Date.now() - started) / 1000);
      }
    },
  );
  // issue 23: hourly, each family's report claimed once on its local Sunday evening
  const weeklyReports = new Cron(
    WEEKLY_REPORT_SCHEDULE,
    { timezone: 'UTC', name: WEEKLY_REPORT_JOB, protect: true },
    async () => {
      const started = Date.now();
      try {
        const sent = await runWeeklyReports(deps, deps.clock.now());
        if (sent > 0) deps.log.info({ job: WEEKLY_REPORT_JOB, sent }, 'weekly reports sent');
        deps.onRun?.(WEEKLY_REPORT_JOB, sent > 0 ? 'ok' : 'skipped', (Date.now() - started) / 1000);
      } catch (error) {
        deps.log.error({ err: error, job: WEEKLY_REPORT_JOB }, 'weekly report job failed');
        deps.onRun?.(WEEKLY_REPORT_JOB, 'failed', (Date.now() - started) / 1000);
      }
    },
  );
  // issue 33: hourly, a Keyward DNS device in use that has been silent for a day
  const { notify } = deps;
  const dnsSilence = notify
    ? new Cron(
        DNS_SILENCE_SCHEDULE,
        { timezone: 'UTC', name: DNS_SILENCE_JOB, protect: true },
        async () => {
          const started = Date.now();
          try {
            const told = await runDnsSilence(notify, deps.clock.now());
            if (told) deps.log.info({ job: DNS_SILENCE_JOB, told }, 'silent DNS devices told');
            deps.onRun?.(
              DNS_SILENCE_JOB,
              told === undefined ? 'skipped' : 'ok',
              (Date.now() - started) / 1000,
            );
          } catch (error) {
            deps.log.error({ err: error, job: DNS_SILENCE_JOB }, 'DNS silence job failed');
            deps.onRun?.(DNS_SILENCE_JOB, 'failed', (Date.now() - started) / 1000);
          }
        },
      )
    : undefined;
  return () => {
    dnsSilence?.stop();
    retention.stop();
    subscriptions.stop();
    weeklyReports.stop();
  };
}
