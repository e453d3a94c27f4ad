import type { ReleaseChannel } from '@keyward/contract/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { BillingService } from '../services/billing.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { Clock } from '../services/clock.ts';
import type { EmailService, Mailer } from '../services/mail.ts';
import type { PushHub } from '../services/push.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { SlackSender } from '../services/slack.ts';
import type { SmsSender } from '../services/sms.ts';
import type { ScreenshotStorage } from '../services/storage.ts';
import type { TokenService } from '../services/tokens.ts';
import type { WebPushSender } from '../services/web-push.ts';

/** Created once in buildApp; add new services (push, sms, slack, billing, storage) here. */
export interface Services {
  mailer: Mailer;
  email: EmailService;
  rateLimit: RateLimiter;
  tokens: TokenService;
  /** Server → Mac push messages (services/push.ts). */
  push: PushHub;
  /** Text messages: Twilio-compatible REST API or the outbox (services/sms.ts). */
  sms: SmsSender;
  /** Slack chat.postMessage or the outbox (services/slack.ts). */
  slack: SlackSender;
  /** Screenshot objects: S3-compatible store or DATA_DIR/screenshots (services/storage.ts). */
  storage: ScreenshotStorage;
  /** Stripe, or the built-in billing simulator without a key (billing/stripe-service.ts). */
  billing: BillingService;
  /** Issue 23: Web Push to the parents' browsers, the "This device" method (services/web-push.ts). */
  webPush: WebPushSender;
}

/** What every resolver receives. */
export interface RequestContext {
  db: Db;
  config: Config;
  clock: Clock;
  services: Services;
  log: FastifyBaseLogger;
  requestId: string;
  /** Client IP per server-behaviour §0.4. */
  ip: string;
  /** Base URL for links in emails: X-DashboardUrl if allow-listed, else the first allow-list entry. */
  dashboardUrl: string;
}

/** auth 'none' */
export interface PublicContext extends RequestContext {
  parentId?: undefined;
}

/** auth 'parent': the session's parent. Reach rows only through operations/ownership.ts. */
export interface ParentContext extends RequestContext {
  /** The family account the session acts for: every ownership check uses this. */
  parentId: string;
  sessionId: string;
  /** The person acting: the account owner (personId = parentId) or a co-parent. */
  personId: string;
  role: 'owner' | 'coParent';
}

/** auth 'device': the Mac token's computer user, its child and that child's parent. */
export interface DeviceContext extends RequestContext {
  computerUserId: string;
  childId: string;
  parentId: string;
  /** the computer user and computer as read with the token, in the same query */
  computer: MacComputerSnapshot;
  /** the token the request came with (the app's UserData carries it back) */
  token: string;
}

/** auth 'iosDevice': the iOS token's device, its child and that child's parent. */
export interface IosDeviceContext extends RequestContext {
  deviceId: string;
  childId: string;
  parentId: string;
}

/** auth 'browser': Keyward for Chrome's browser (a computer of kind `browser`) and its child. */
export interface BrowserContext extends RequestContext {
  computerUserId: string;
  computerId: string;
  browser: string;
  childId: string;
  parentId: string;
}

export type ContextFor<Auth> = Auth extends 'parent'
  ? ParentContext
  : Auth extends 'device'
    ? DeviceContext
    : Auth extends 'iosDevice'
      ? IosDeviceContext
      : Auth extends 'browser'
        ? BrowserContext
        : PublicContext;

/**
 * What a Mac's request reads of its computer user and computer with the token, in the same query
 * (devices/device-auth.ts): CheckIn_v2 needs nothing else to answer from the read cache (issue 11).
 * The versions are the family's and the shared data's (family_versions), read before any of the
 * answer's data.
 */
export interface MacComputerSnapshot {
  computerId: string;
  appVersion: string;
  isAdmin: unknown;
  filterVersion: string | null;
  osVersion: string | null;
  appReleaseChannel: ReleaseChannel;
  familyVersion: string | undefined;
  sharedVersion: string | undefined;
}
