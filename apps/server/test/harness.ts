import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { createDatabase, type Db, dialectOf, migrateToLatest } from '../src/db/database.ts';
import { FakeClock } from '../src/services/clock.ts';
import type { Mailer, OutgoingEmail } from '../src/services/mail.ts';
import type { TemplateDatabase } from './template-database.ts';

// Integration-test harness: a real server (app.inject) on a real, fresh database.
// SQLite: a temp file per server. TEST_DATABASE_URL=postgres://… : a fresh database
// `kw_<random>` on that server per test server, dropped in close().
// The fresh database is a copy of the run's migrated template (template-database.ts, the vitest
// global set-up) when there is one; migrateToLatest then finds nothing left to do. Without one
// (a vitest config without that set-up), each server migrates its own database.

export interface CallOptions {
  /** X-AdminToken (dashboard), X-UserToken (macos-app), X-DeviceToken (ios-app), X-BrowserToken */
  token?: string;
  headers?: Record<string, string>;
  namespace?: 'dashboard' | 'macos-app' | 'ios-app' | 'browser-filter';
  /** Raw body instead of JSON.stringify(input). */
  rawBody?: string;
}

export interface CallResult {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever came back
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  config: Config;
  clock: FakeClock;
  mails: OutgoingEmail[];
  call(op: string, input?: unknown, options?: CallOptions): Promise<CallResult>;
  /** The newest email sent to `address` (optionally of one template). */
  lastEmailTo(address: string, template?: string): OutgoingEmail;
  /** The first link in the email whose path starts with `pathPrefix`. */
  linkIn(email: OutgoingEmail, pathPrefix: string): URL;
  signUpVerifiedParent(
    email?: string,
    password?: string,
  ): Promise<{ adminId: string; token: string; email: string; password: string }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  env?: Record<string, string>;
}

const TOKEN_HEADER = {
  dashboard: 'x-admintoken',
  'macos-app': 'x-usertoken',
  'ios-app': 'x-devicetoken',
  'browser-filter': 'x-browsertoken',
} as const;

export function uniqueEmail(prefix = 'parent'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
}

/** The migrated template of this run, when the vitest config's global set-up made one. */
function templateDatabase(): TemplateDatabase | undefined {
  try {
    return inject('templateDatabase');
  } catch {
    return undefined;
  }
}

/** A fresh database on that server (a copy of `template` when given), dropped by `drop()`. */
export async function createPostgresDatabase(baseUrl: string, template?: string) {
  const name = `kw_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export async function createTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keyward-test-'));
  const testDatabaseUrl = process.env.TEST_DATABASE_URL;
  const template = templateDatabase();
  const postgres = testDatabaseUrl?.startsWith('postgres')
    ? await createPostgresDatabase(
        testDatabaseUrl,
        template && 'postgresDatabase' in template ? template.postgresDatabase : undefined,
      )
    : undefined;

  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'web-dist'),
    HMAC_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    // generous by default so tests can create many parents from one IP; rate-limit tests pass 1
    RATE_LIMIT_SCALE: '100',
    ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    ...options.env,
  });
  // A server of its own on SQLite starts from a copy of the migrated template; one given an
  // existing database (a restored backup, a second server on the same DATA_DIR) keeps it.
  if (
    !config.databaseUrl &&
    template &&
    'sqliteFile' in template &&
    !existsSync(config.sqliteFile)
  ) {
    mkdirSync(path.dirname(config.sqliteFile), { recursive: true });
    copyFileSync(template.sqliteFile, config.sqliteFile);
  }
  const db = createDatabase(config);
  await migrateToLatest(db, dialectOf(config));

  const clock = new FakeClock();
  const mails: OutgoingEmail[] = [];
  const mailer: Mailer = {
    async send(email) {
      mails.push(email);
    },
  };
  const app = await buildApp({ config, db, clock, mailer });

  const server: TestServer = {
    app,
    db,
    config,
    clock,
    mails,
    async call(op, input, callOptions = {}) {
      const namespace = callOptions.namespace ?? 'dashboard';
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (callOptions.token) {
        headers[TOKEN_HEADER[namespace]] = callOptions.token;
      }
      Object.assign(headers, callOptions.headers);
      const payload =
        callOptions.rawBody ?? (input === undefined ? undefined : JSON.stringify(input));
      const response = await app.inject({
        method: 'POST',
        url: `/pairql/${namespace}/${op}`,
        headers,
        ...(payload === undefined ? {} : { payload }),
      });
      let body: unknown = response.body;
      try {
        body = JSON.parse(response.body);
      } catch {
        // keep the raw text; tests assert on it
      }
      return { status: response.statusCode, body, headers: response.headers };
    },
    lastEmailTo(address, template) {
      const found = mails.filter(
        (mail) => mail.to === address && (template === undefined || mail.template === template),
      );
      const last = found.at(-1);
      if (!last) throw new Error(`No ${template ?? ''} email to ${address}`);
      return last;
    },
    linkIn(email, pathPrefix) {
      const link = email.links
        .map((l) => new URL(l))
        .find((u) => u.pathname.startsWith(pathPrefix));
      if (!link)
        throw new Error(`No ${pathPrefix} link in ${email.template}: ${email.links.join(', ')}`);
      return link;
    },
    async signUpVerifiedParent(email = uniqueEmail(), password = 'correct horse') {
      const signup = await server.call('Signup', { email, password });
      if (signup.status !== 200) throw new Error(`Signup failed: ${JSON.stringify(signup.body)}`);
      const link = server.linkIn(
        server.lastEmailTo(email, 'initial-signup'),
        '/verify-signup-email/',
      );
      const token = link.pathname.split('/').at(-1)!;
      const verified = await server.call('VerifySignupEmail', { token });
      if (verified.status !== 200)
        throw new Error(`Verify failed: ${JSON.stringify(verified.body)}`);
      return { adminId: verified.body.adminId, token: verified.body.token, email, password };
    },
    async close() {
      await app.close();
      await db.destroy();
      await postgres?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}
