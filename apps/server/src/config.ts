import { createECDH, randomBytes } from 'node:crypto';
import { type DnsConfig, DnsConfigError, parseDnsConfig } from './dns-config.ts';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isUuid } from '@keyward/domain/uuid';

// Configuration is read and validated once, at start-up. A bad value stops start-up with a
// message naming the variable (ConfigError). This file is the ground floor with db/: it imports
// nothing of the server's own; the defaults and parsers it needs live here (README, layout).

/**
 * Issue 19: a child's requests (and a child's security events) within this many seconds are one
 * parent notification, sent when the window ends ("Emma sent 6 unlock requests"); windows start on
 * whole minutes. The first request waits at most this long before its parent hears of it.
 * NOTIFICATION_GROUP_SECONDS overrides it (e2e tests use a short one).
 */
export const NOTIFICATION_GROUP_SECONDS = 60;

export type Mode = 'production' | 'staging' | 'development' | 'test';
export type ReleaseChannelName = 'stable' | 'beta' | 'canary';
/**
 * BILLING: `off` (nobody pays: no trial, no plan to buy, accounts never expire for want of
 * payment), `stripe` (plans paid through Stripe) or `simulator` (the built-in stand-in for Stripe,
 * development and tests only).
 */
export type BillingMode = 'off' | 'stripe' | 'simulator';

export interface Config {
  mode: Mode;
  host: string;
  port: number;
  dataDir: string;
  /** `postgres://…` → PostgreSQL; undefined → SQLite file `sqliteFile`. */
  databaseUrl: string | undefined;
  sqliteFile: string;
  /** Allow-list of dashboard origins (no trailing slash). The first entry is the default for links. */
  dashboardUrls: string[];
  /**
   * The API server's own public origin (`PUBLIC_URL`, default the server's own address): the base
   * of URLs that devices and browsers must reach on the API itself (screenshot uploads and images,
   * data-export downloads, the billing simulator's pages), never the dashboard's origin.
   */
  publicUrl: string;
  /** the iOS app's unauthenticated settings (parseIosAppSettings below; used by ios/settings.ts) */
  iosApp: IosAppSettings;
  smtpUrl: string | undefined;
  /** Twilio-compatible SMS REST API; undefined → texts go to DATA_DIR/outbox. */
  sms: SmsConfig | undefined;
  /** Slack Web API base URL (ends with `/`); undefined → Slack messages go to DATA_DIR/outbox. */
  slackApiUrl: string | undefined;
  webDist: string;
  /** issue 22: the unpacked Keyward for Chrome build served as /downloads/keyward-chrome.zip */
  browserFilterDist: string;
  /** issue 22: PEM of the key its CRX is signed with; unset → generated into DATA_DIR */
  browserFilterSigningKey: string | undefined;
  operatorEmail: string | undefined;
  appName: string;
  mailFrom: string;
  supportEmail: string;
  /** Documentation link (sidebar, quick actions, emails); default: the server's /getting-started page. */
  docsUrl: string;
  /** Contact/support link; default: the support section of the server's /getting-started page. */
  supportUrl: string;
  /** Direct peers whose client-IP headers are believed (exact IP match). */
  trustedProxies: string[];
  /** e.g. `cf-connecting-ip` (lowercase); consulted before X-Forwarded-For / X-Real-IP. */
  clientIpHeader: string | undefined;
  /** Multiplies every rate-limit budget (e2e uses a large value). */
  rateLimitScale: number;
  /** Issue 19: a child's requests within this many seconds are one parent notification. */
  notificationGroupSeconds: number;
  logLevel: string;
  /** 32-byte keys: HMAC for codes and signed URLs; AES-256-GCM for stored third-party secrets. */
  hmacKey: Buffer;
  encryptionKey: Buffer;
  /** Issue 23: Web Push's VAPID key pair (RFC 8292) and contact, services/web-push.ts. */
  vapid: VapidConfig;
  /** Latest Mac app version per channel, when configured. */
  releases: Partial<Record<ReleaseChannelName, string>>;
  /** METRICS=1 serves GET /metrics (Prometheus text format). */
  metrics: boolean;
  /** S3-compatible screenshot store; undefined → local directory DATA_DIR/screenshots. */
  s3: S3Config | undefined;
  /** Lifetime of signed screenshot read URLs (server-behaviour §7.1: 1 hour; tests may shorten it). */
  screenshotReadUrlSeconds: number;
  /** How accounts pay (BILLING; see BillingMode). */
  billing: BillingMode;
  /** Stripe's keys and prices: set exactly when `billing` is `stripe`. */
  stripe: StripeConfig | undefined;
  /**
   * READ_CACHE_VERIFY=1 recomputes every read-cache hit and answers 500 when it differs
   * (pairql/read-cache.ts); on by default under NODE_ENV=test, off otherwise.
   */
  readCacheVerify: boolean;
  /** Issue 33: Keyward DNS (dns-config.ts, docs/dns.md) */
  dns: DnsConfig;
}

export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** Stripe price id per monthly price in cents (parents.monthly_price). */
  priceIds: Record<number, string>;
}

export interface S3Config {
  bucket: string;
  region: string;
  /** e.g. `http://127.0.0.1:4568` for an S3-compatible store (path-style); undefined → AWS. */
  endpoint: string | undefined;
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SmsConfig {
  /** Base URL without trailing slash, e.g. `https://api.twilio.com`. */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  /** Sender number (E.164). */
  from: string;
}

export const SLACK_PUBLIC_API_URL = 'https://slack.com/api/';

export class ConfigError extends Error {
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(serverDir, '..', '..');

type Env = Record<string, string | undefined>;

function optional(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function parsePort(env: Env): number {
  const raw = optional(env, 'PORT');
  if (raw === undefined) return 8080;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be a port number (0-65535), got "${raw}"`);
  }
  return port;
}

function parseMode(env: Env): Mode {
  const raw = optional(env, 'NODE_ENV') ?? 'development';
  if (raw === 'production' || raw === 'staging' || raw === 'development' || raw === 'test')
    return raw;
  throw new ConfigError(
    'NODE_ENV',
    `must be production, staging, development or test, got "${raw}"`,
  );
}

function parseOrigin(variable: string, raw: string): string {
  const trimmed = raw.trim().replace(/\/$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ConfigError(variable, `must hold absolute http(s) URLs, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(variable, `must hold http(s) URLs, got "${raw}"`);
  }
  return trimmed;
}

/** An absolute http(s) or mailto: link. */
function parseLinkUrl(variable: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(variable, `must be an absolute http(s) or mailto: URL, got "${raw}"`);
  }
  if (!['http:', 'https:', 'mailto:'].includes(url.protocol)) {
    throw new ConfigError(variable, `must be an http(s) or mailto: URL, got "${raw}"`);
  }
  return raw;
}

function parseEmail(variable: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const address = raw.match(/<([^>]+)>/)?.[1] ?? raw;
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) {
    throw new ConfigError(variable, `must be an email address, got "${raw}"`);
  }
  return raw;
}

function parseKey(variable: string, raw: string | undefined): Buffer | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9a-fA-F]{64}$/.test(raw)) {
    throw new ConfigError(variable, 'must be 64 hex characters (32 bytes)');
  }
  return Buffer.from(raw, 'hex');
}

function parseVersion(variable: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+\.\d+\.\d+$/.test(raw)) {
    throw new ConfigError(variable, `must be a version like 2.4.1, got "${raw}"`);
  }
  return raw;
}

function parseFlag(env: Env, name: string): boolean {
  const raw = optional(env, name);
  if (raw === undefined || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (raw === '1' || raw.toLowerCase() === 'true') return true;
  throw new ConfigError(name, `must be 1 or 0, got "${raw}"`);
}

/**
 * BILLING, default: `stripe` with STRIPE_SECRET_KEY; without it `off` in production and the
 * simulator elsewhere. The simulator makes any account paid without payment: never in production.
 */
function parseBilling(env: Env, mode: Mode): { billing: BillingMode; stripe?: StripeConfig } {
  const raw = optional(env, 'BILLING')?.toLowerCase();
  if (raw !== undefined && raw !== 'off' && raw !== 'stripe' && raw !== 'simulator') {
    throw new ConfigError('BILLING', `must be off, stripe or simulator, got "${raw}"`);
  }
  const stripe = parseStripe(env);
  const billing = raw ?? (stripe ? 'stripe' : mode === 'production' ? 'off' : 'simulator');
  if (billing === 'simulator' && mode === 'production') {
    throw new ConfigError(
      'BILLING',
      'cannot be simulator with NODE_ENV=production (the simulator takes no payment): use off, or stripe with STRIPE_SECRET_KEY',
    );
  }
  if (billing === 'stripe' && !stripe) {
    throw new ConfigError('STRIPE_SECRET_KEY', 'must be set with BILLING=stripe');
  }
  return billing === 'stripe' ? { billing, stripe } : { billing };
}

/** STRIPE_SECRET_KEY switches billing to Stripe; the rest is then required. */
function parseStripe(env: Env): StripeConfig | undefined {
  const secretKey = optional(env, 'STRIPE_SECRET_KEY');
  if (secretKey === undefined) return undefined;
  if (!/^(sk|rk)_(test|live)_/.test(secretKey)) {
    throw new ConfigError(
      'STRIPE_SECRET_KEY',
      'must be a Stripe secret key (sk_live_… or sk_test_…)',
    );
  }
  const webhookSecret = optional(env, 'STRIPE_WEBHOOK_SECRET');
  if (webhookSecret === undefined || !webhookSecret.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET', 'must be set (whsec_…) with STRIPE_SECRET_KEY');
  }
  const raw = optional(env, 'STRIPE_PRICE_IDS');
  if (raw === undefined) {
    throw new ConfigError(
      'STRIPE_PRICE_IDS',
      'must be set with STRIPE_SECRET_KEY, e.g. 1000=price_123',
    );
  }
  const priceIds: Record<number, string> = {};
  for (const entry of raw.split(',')) {
    const match = /^\s*(\d+)\s*=\s*(price_\w+)\s*$/.exec(entry);
    if (!match) {
      throw new ConfigError('STRIPE_PRICE_IDS', `must be cents=price_id pairs, got "${entry}"`);
    }
    priceIds[Number(match[1])] = match[2]!;
  }
  return { secretKey, webhookSecret, priceIds };
}

function parseReadUrlSeconds(env: Env): number {
  const raw = optional(env, 'SCREENSHOT_READ_URL_SECONDS');
  if (raw === undefined) return 60 * 60;
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || seconds < 5 || seconds > 7 * 24 * 60 * 60) {
    throw new ConfigError(
      'SCREENSHOT_READ_URL_SECONDS',
      `must be a whole number of seconds from 5 to 604800, got "${raw}"`,
    );
  }
  return seconds;
}

function parseS3(env: Env): S3Config | undefined {
  const bucket = optional(env, 'S3_BUCKET');
  if (bucket === undefined) return undefined;
  const required = (name: string) => {
    const value = optional(env, name);
    if (value === undefined) throw new ConfigError(name, 'is required when S3_BUCKET is set');
    return value;
  };
  const endpoint = optional(env, 'S3_ENDPOINT');
  return {
    bucket,
    region: optional(env, 'S3_REGION') ?? 'us-east-1',
    endpoint: endpoint === undefined ? undefined : parseOrigin('S3_ENDPOINT', endpoint),
    accessKeyId: required('S3_ACCESS_KEY_ID'),
    secretAccessKey: required('S3_SECRET_ACCESS_KEY'),
  };
}

function parseSms(env: Env): SmsConfig | undefined {
  const apiUrl = optional(env, 'SMS_API_URL');
  if (apiUrl === undefined) return undefined;
  const base = parseOrigin('SMS_API_URL', apiUrl);
  const required = (name: string) => {
    const value = optional(env, name);
    if (value === undefined) throw new ConfigError(name, 'is required when SMS_API_URL is set');
    return value;
  };
  return {
    apiUrl: base,
    accountSid: required('SMS_ACCOUNT_SID'),
    authToken: required('SMS_AUTH_TOKEN'),
    from: required('SMS_FROM'),
  };
}

/**
 * Slack needs no operator credentials (each method carries the parent's bot token), so unset means
 * Slack's public API in production; `outbox` keeps messages local. Whenever NODE_ENV is not
 * production, unset means outbox, as for emails and texts: a test never reaches the internet, and
 * a newcomer can verify a Slack method from DATA_DIR/outbox and the log (issue 20).
 */
function parseSlackApiUrl(env: Env, mode: Mode): string | undefined {
  const raw = optional(env, 'SLACK_API_URL');
  if (raw === undefined) return mode === 'production' ? SLACK_PUBLIC_API_URL : undefined;
  if (raw.toLowerCase() === 'outbox') return undefined;
  return `${parseOrigin('SLACK_API_URL', raw)}/`;
}

export interface VapidConfig {
  /** P-256 public key, uncompressed point, base64url (the browser's applicationServerKey) */
  publicKey: string;
  /** P-256 private key, 32 bytes, base64url */
  privateKey: string;
  /** `mailto:` or `https:` contact the push services may use */
  subject: string;
}

/**
 * VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY (base64url, as `web-push generate-vapid-keys` prints them),
 * else a pair generated once into DATA_DIR/vapid.json like the other secrets. A new pair would end
 * every browser's subscription, so the file is kept.
 */
function parseVapid(env: Env, dataDir: string, supportEmail: string): VapidConfig {
  const subject = optional(env, 'VAPID_SUBJECT') ?? `mailto:${supportEmail}`;
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) {
    throw new ConfigError('VAPID_SUBJECT', 'must be a mailto: address or an https:// URL');
  }
  const publicKey = optional(env, 'VAPID_PUBLIC_KEY');
  const privateKey = optional(env, 'VAPID_PRIVATE_KEY');
  if (publicKey !== undefined || privateKey !== undefined) {
    if (publicKey === undefined || Buffer.from(publicKey, 'base64url').length !== 65) {
      throw new ConfigError('VAPID_PUBLIC_KEY', 'must be a base64url P-256 public key (65 bytes)');
    }
    if (privateKey === undefined || Buffer.from(privateKey, 'base64url').length !== 32) {
      throw new ConfigError(
        'VAPID_PRIVATE_KEY',
        'must be a base64url P-256 private key (32 bytes)',
      );
    }
    return { publicKey, privateKey, subject };
  }
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      publicKey: string;
      privateKey: string;
    };
    return { ...stored, subject };
  }
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const pair = {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(pair), { mode: 0o600 });
  return { ...pair, subject };
}

/** Keys not given in the environment are generated once and kept in DATA_DIR/secrets.json. */
function loadOrCreateSecrets(dataDir: string): { hmacKey: Buffer; encryptionKey: Buffer } {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as {
      hmacKey: string;
      encryptionKey: string;
    };
    return {
      hmacKey: Buffer.from(stored.hmacKey, 'hex'),
      encryptionKey: Buffer.from(stored.encryptionKey, 'hex'),
    };
  }
  const hmacKey = randomBytes(32);
  const encryptionKey = randomBytes(32);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    file,
    JSON.stringify({
      hmacKey: hmacKey.toString('hex'),
      encryptionKey: encryptionKey.toString('hex'),
    }),
    { mode: 0o600 },
  );
  return { hmacKey, encryptionKey };
}

function parseDns(env: Env, mode: Mode, dataDir: string, baseDir: string): DnsConfig {
  try {
    return parseDnsConfig(env, mode, dataDir, baseDir);
  } catch (error) {
    if (error instanceof DnsConfigError) throw new ConfigError(error.variable, error.problem);
    throw error;
  }
}

export function loadConfig(env: Env = process.env): Config {
  const mode = parseMode(env);
  const host = optional(env, 'HOST') ?? '127.0.0.1';
  const port = parsePort(env);
  const baseDir = env.INIT_CWD ?? process.cwd();
  const dataDir = path.resolve(baseDir, optional(env, 'DATA_DIR') ?? './data');

  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL',
      'must start with postgres:// (leave it unset for SQLite)',
    );
  }

  const ownOrigin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const dashboardRaw = optional(env, 'DASHBOARD_URL');
  const dashboardUrls = dashboardRaw
    ? dashboardRaw
        .split(',')
        .filter((entry) => entry.trim() !== '')
        .map((entry) => parseOrigin('DASHBOARD_URL', entry))
    : [ownOrigin];
  if (dashboardUrls.length === 0) throw new ConfigError('DASHBOARD_URL', 'is empty');
  const publicRaw = optional(env, 'PUBLIC_URL');
  const publicUrl = publicRaw === undefined ? ownOrigin : parseOrigin('PUBLIC_URL', publicRaw);

  const smtpUrl = optional(env, 'SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError('SMTP_URL', 'must start with smtp:// or smtps://');
  }

  const scaleRaw = optional(env, 'RATE_LIMIT_SCALE');
  const rateLimitScale = scaleRaw === undefined ? 1 : Number(scaleRaw);
  if (!Number.isFinite(rateLimitScale) || rateLimitScale <= 0) {
    throw new ConfigError('RATE_LIMIT_SCALE', `must be a positive number, got "${scaleRaw}"`);
  }
  const groupRaw = optional(env, 'NOTIFICATION_GROUP_SECONDS');
  const notificationGroupSeconds =
    groupRaw === undefined ? NOTIFICATION_GROUP_SECONDS : Number(groupRaw);
  if (!Number.isInteger(notificationGroupSeconds) || notificationGroupSeconds < 1) {
    throw new ConfigError(
      'NOTIFICATION_GROUP_SECONDS',
      `must be a whole number of seconds, at least 1, got "${groupRaw}"`,
    );
  }

  const logLevel = optional(env, 'LOG_LEVEL') ?? (mode === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(
      'LOG_LEVEL',
      'must be one of fatal, error, warn, info, debug, trace, silent',
    );
  }

  const clientIpHeader = optional(env, 'CLIENT_IP_HEADER')?.toLowerCase();
  if (clientIpHeader !== undefined && !/^[a-z0-9-]+$/.test(clientIpHeader)) {
    throw new ConfigError('CLIENT_IP_HEADER', 'must be an HTTP header name');
  }

  const envHmac = parseKey('HMAC_KEY', optional(env, 'HMAC_KEY'));
  const envEncryption = parseKey('ENCRYPTION_KEY', optional(env, 'ENCRYPTION_KEY'));
  const secrets = envHmac && envEncryption ? undefined : loadOrCreateSecrets(dataDir);

  const billing = parseBilling(env, mode);
  const appName = optional(env, 'APP_NAME') ?? 'Keyward';
  const supportEmail =
    parseEmail('SUPPORT_EMAIL', optional(env, 'SUPPORT_EMAIL')) ?? 'support@keyward.local';
  return {
    mode,
    host,
    port,
    dataDir,
    databaseUrl,
    sqliteFile: path.join(dataDir, 'keyward.sqlite'),
    dashboardUrls,
    publicUrl,
    iosApp: parseIosAppSettings(env),
    smtpUrl,
    sms: parseSms(env),
    slackApiUrl: parseSlackApiUrl(env, mode),
    webDist: path.resolve(
      baseDir,
      optional(env, 'WEB_DIST') ?? path.join(repoRoot, 'apps/web/dist'),
    ),
    browserFilterDist: path.resolve(
      baseDir,
      optional(env, 'BROWSER_FILTER_DIST') ??
        path.join(repoRoot, 'apps/browser-filter/dist/unpacked'),
    ),
    // a PEM in one line of an env file may carry its line breaks as \n
    browserFilterSigningKey: optional(env, 'BROWSER_FILTER_SIGNING_KEY')?.replace(/\\n/g, '\n'),
    operatorEmail: parseEmail('OPERATOR_EMAIL', optional(env, 'OPERATOR_EMAIL')),
    appName,
    mailFrom:
      parseEmail('MAIL_FROM', optional(env, 'MAIL_FROM')) ?? `${appName} <no-reply@keyward.local>`,
    supportEmail,
    docsUrl:
      parseLinkUrl('DOCS_URL', optional(env, 'DOCS_URL')) ?? `${dashboardUrls[0]}/getting-started`,
    supportUrl:
      parseLinkUrl('SUPPORT_URL', optional(env, 'SUPPORT_URL')) ??
      `${dashboardUrls[0]}/getting-started#support`,
    trustedProxies: (optional(env, 'TRUSTED_PROXIES') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    clientIpHeader,
    rateLimitScale,
    notificationGroupSeconds,
    logLevel,
    hmacKey: envHmac ?? secrets!.hmacKey,
    encryptionKey: envEncryption ?? secrets!.encryptionKey,
    vapid: parseVapid(env, dataDir, supportEmail),
    metrics: parseFlag(env, 'METRICS'),
    s3: parseS3(env),
    screenshotReadUrlSeconds: parseReadUrlSeconds(env),
    billing: billing.billing,
    stripe: billing.stripe,
    readCacheVerify:
      optional(env, 'READ_CACHE_VERIFY') === undefined
        ? mode === 'test'
        : parseFlag(env, 'READ_CACHE_VERIFY'),
    dns: parseDns(env, mode, dataDir, baseDir),
    releases: {
      stable: parseVersion('RELEASE_STABLE', optional(env, 'RELEASE_STABLE')),
      beta: parseVersion('RELEASE_BETA', optional(env, 'RELEASE_BETA')),
      canary: parseVersion('RELEASE_CANARY', optional(env, 'RELEASE_CANARY')),
    },
  };
}

// Operator settings of the iOS app's unauthenticated operations, read with the rest of the
// configuration (a bad value is a ConfigError naming the variable):
//   IOS_RECOVERY_RETRY_VENDOR_IDS  comma-separated vendor ids (or `*` for every device) told to
//                                  retry when they ask RecoveryDirective; default none
//   IOS_CONNECT_ACCOUNT_ENABLED    1/true: ConnectAccountFeatureFlag offers connecting a parent
//                                  account; default off

export interface IosAppSettings {
  /** `'*'`: every device; else the lowercase vendor ids. */
  recoveryRetry: '*' | ReadonlySet<string>;
  connectAccountEnabled: boolean;
}

export function parseIosAppSettings(env: Env): IosAppSettings {
  return {
    recoveryRetry: parseVendorIds(env.IOS_RECOVERY_RETRY_VENDOR_IDS?.trim() ?? ''),
    connectAccountEnabled: parseIosFlag(
      'IOS_CONNECT_ACCOUNT_ENABLED',
      env.IOS_CONNECT_ACCOUNT_ENABLED?.trim() ?? '',
    ),
  };
}

function parseVendorIds(raw: string): '*' | ReadonlySet<string> {
  if (raw === '*') return '*';
  const ids = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) {
    throw new ConfigError(
      'IOS_RECOVERY_RETRY_VENDOR_IDS',
      `must be * or comma-separated UUIDs, got "${bad}"`,
    );
  }
  return new Set(ids.map((id) => id.toLowerCase()));
}

function parseIosFlag(name: string, raw: string): boolean {
  if (raw === '' || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (raw === '1' || raw.toLowerCase() === 'true') return true;
  throw new ConfigError(name, `must be 1, true, 0 or false, got "${raw}"`);
}
