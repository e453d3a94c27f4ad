import { randomUUID } from 'node:crypto';
import { dashboard } from '@keyward/contract/dashboard';
import { macosApp } from '@keyward/contract/device';
import { browserFilter } from '@keyward/contract/browser';
import { iosApp } from '@keyward/contract/ios';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { registerBilling } from './billing/routes.ts';
import { createBillingService } from './billing/stripe-service.ts';
import type { Config } from './config.ts';
import { createDatabase, type Db } from './db/database.ts';
import websocket from '@fastify/websocket';
import { CLOSE_SHUTDOWN, MAX_FRAME_BYTES, registerDeviceChannel } from './devices/channel.ts';
import { loadConfiguredReleases } from './devices/releases.ts';
import { registerCompression } from './http/compression.ts';
import { registerDataExportDownload } from './http/data-export.ts';
import { registerHelpPages } from './http/help-pages.ts';
import { registerDashboardCors } from './http/cors.ts';
import { registerMetrics } from './http/metrics.ts';
import { registerScreenshotRoutes } from './http/screenshots.ts';
import { registerBrowserFilter } from './http/browser-filter.ts';
import { registerDns } from './http/dns.ts';
import { registerSignedInPages } from './http/signed-in-page.ts';
import { registerSpa } from './http/spa.ts';
import { dataExportsSettled } from './exports/data-export.ts';
import { runDnsSilence } from './jobs/dns-silence.ts';
import { type JobRunMetrics, startScheduledJobs } from './jobs/scheduler.ts';
import { notificationsDelivered } from './notifications/child-writes.ts';
import type { Services } from './pairql/context.ts';
import { loadResolvers, type Namespace, registerPairQL } from './http/pairql.ts';
import { type Clock, systemClock } from './services/clock.ts';
import { createEmailService, createMailer, type Mailer } from './services/mail.ts';
import { createPushHub } from './services/push.ts';
import { loggerOptions } from './services/log-format.ts';
import { createRateLimiter } from './pairql/rate-limit.ts';
import { createSlackSender, type SlackSender } from './services/slack.ts';
import { createSmsSender, type SmsSender } from './services/sms.ts';
import { createScreenshotStorage, type ScreenshotStorage } from './services/storage.ts';
import { createTokenService } from './services/tokens.ts';
import { createWebPushSender } from './services/web-push.ts';
import { registerPushActions } from './http/push-actions.ts';
import { registerWeeklyReportRoutes } from './http/weekly-report.ts';

export interface BuildAppOptions {
  config: Config;
  /** Already migrated database; created from config when absent (and destroyed on close). */
  db?: Db;
  clock?: Clock;
  mailer?: Mailer;
  /** Test doubles for the text and Slack channels (default: from config). */
  sms?: SmsSender;
  slack?: SlackSender;
  /** Screenshot store (default: from config). */
  storage?: ScreenshotStorage;
}

const NAMESPACES: Namespace[] = [
  { name: 'dashboard', operations: dashboard, folder: 'dashboard' },
  { name: 'macos-app', operations: macosApp, folder: 'device' },
  { name: 'ios-app', operations: iosApp, folder: 'ios' },
  { name: 'browser-filter', operations: browserFilter, folder: 'browser' },
];

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(config),
    genReqId: () => randomUUID(),
    trustProxy: false, // client IPs follow server-behaviour §0.4 (services/client-ip.ts)
    bodyLimit: 512 * 1024,
  });

  const db = options.db ?? createDatabase(config);
  if (!options.db) app.addHook('onClose', async () => db.destroy());

  const mailer = options.mailer ?? createMailer(config, app.log);
  const push = createPushHub({ db, databaseUrl: config.databaseUrl, log: app.log });
  await push.start();
  app.addHook('onClose', async () => push.close());
  app.decorate('push', push);
  const services: Services = {
    mailer,
    email: createEmailService(mailer, config, clock),
    rateLimit: createRateLimiter(db, clock, config.rateLimitScale),
    tokens: createTokenService(config),
    push,
    sms: options.sms ?? createSmsSender(config, app.log),
    slack: options.slack ?? createSlackSender(config, app.log),
    storage: options.storage ?? createScreenshotStorage(config, clock),
    webPush: createWebPushSender(config, app.log),
    billing: createBillingService({
      config,
      clock,
      log: app.log,
      inject: (request) => app.inject(request),
    }),
  };

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(services.storage.imageOrigin ? [services.storage.imageOrigin] : []),
        ],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The same answer as frame-ancestors 'none', for browsers that only read this header.
    xFrameOptions: { action: 'deny' },
    // Issue 31: a dashboard page served by Keyward on one allowed origin names that origin (never
    // a path) when it loads screenshots from an API on another, so they may load (http/cors.ts).
    // Helmet's default, no-referrer, named nothing.
    referrerPolicy: { policy: 'strict-origin' },
    // Local installs run on plain http://127.0.0.1.
    strictTransportSecurity: config.mode === 'production',
  });

  registerDashboardCors(app, config.dashboardUrls);
  await registerCompression(app);
  registerMetrics(app, {
    enabled: config.metrics,
    db,
    operations: Object.fromEntries(
      NAMESPACES.map((namespace) => [namespace.name, new Set(Object.keys(namespace.operations))]),
    ),
    openChannels: () =>
      app.hasDecorator('deviceChannel') ? app.deviceChannel.connectionCount() : 0,
  });
  app.addHook('onReady', async () => loadConfiguredReleases(db, config, clock));

  app.get('/healthz', async (request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { ok: true };
    } catch (error) {
      request.log.error({ err: error }, 'health check failed');
      return reply.code(503).send({ ok: false });
    }
  });

  const namespaces = await Promise.all(
    NAMESPACES.map(async (namespace) => ({ namespace, resolvers: await loadResolvers(namespace) })),
  );
  await registerPairQL(app, { db, config, clock, services, namespaces });
  // Issue 32: the WebSocket plugin once for the whole server. Registered in each channel's scope, it
  // added one 'upgrade' listener each, and the second routed every upgrade again, on a socket the
  // first had taken ("websocket upgrade failed … ERR_HTTP_SOCKET_ASSIGNED" at each connection).
  // Frames above the largest channel's limit close at once (1009); the browser's channel checks
  // its own smaller one.
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    // Shutting down: every channel is told to reconnect (1012), as the channels' own hooks then
    // say too; the plugin's own hook, which runs first, would close them with no code (1005).
    preClose(done) {
      for (const client of this.websocketServer.clients) {
        client.close(CLOSE_SHUTDOWN, 'server restarting');
      }
      done();
    },
  });
  await registerDeviceChannel(app, { db, clock, push });
  await registerBrowserFilter(app, { db, config, clock, services });
  // issue 33: Keyward DNS (DoH here, DoT on its own port)
  await registerDns(app, {
    db,
    config,
    clock,
    push,
    services,
    onQuery: (transport, outcome) => app.metrics.dnsQuery(transport, outcome),
  });
  await registerBilling(app, { db, config, clock, billing: services.billing });
  await registerScreenshotRoutes(app, { db, clock, storage: services.storage });
  // issue 23: the one-tap decisions of a push notification (no session: an action token)
  registerPushActions(app, { db, config, clock, services });
  // issue 23: the weekly report's one-click stop (RFC 8058)
  registerWeeklyReportRoutes(app, { db, clock, tokens: services.tokens });
  // Daily jobs (retention, subscriptions) on schedule in every mode but test; one instance per run (§9).
  const notify = {
    db,
    config,
    clock,
    services,
    log: app.log,
    dashboardUrl: config.dashboardUrls[0]!,
  };
  // issue 33: the hourly DNS silence job, also run on demand by tests
  app.decorate('runDnsSilence', (now: Date) => runDnsSilence(notify, now));
  const stopJobs = startScheduledJobs({
    db,
    config,
    clock,
    storage: services.storage,
    billing: services.billing,
    email: services.email,
    tokens: services.tokens,
    log: app.log,
    notify,
    onRun: (job, outcome, seconds) =>
      (app as unknown as { metrics?: JobRunMetrics }).metrics?.jobRun(job, outcome, seconds),
  });
  app.addHook('onClose', async () => stopJobs());
  // issue 12: the family's data export ZIP through its signed link; builds finish before close
  await registerDataExportDownload(app, { db, config, clock, storage: services.storage });
  app.addHook('onClose', async () => dataExportsSettled());
  // parent notifications about a child's request go out after the device's answer; wait for them
  app.addHook('onClose', async () => notificationsDelivered());
  await registerHelpPages(app, config);
  // issue 30: the session cookie, and the home page rendered with its first reads
  const signedInPages = registerSignedInPages(app, {
    db,
    config,
    clock,
    rateLimit: services.rateLimit,
  });
  await registerSpa(app, config.webDist, signedInPages);

  return app;
}
