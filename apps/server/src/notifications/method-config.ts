import type { NotificationMethodConfig } from '@keyward/contract/shared';
import type { TokenService } from '../services/tokens.ts';
import type { BrowserSubscription } from '../services/web-push.ts';

// How notification-method configs are stored (notification_methods.config and
// pending_notification_methods.config): the wire config, except that Slack's `token` is replaced
// by `encryptedToken` (AES-256-GCM, services/tokens.ts). `config_fingerprint` is the HMAC of the
// canonical plaintext config, so a parent cannot verify the same method twice.

export type StoredMethodConfig = WireStoredMethodConfig | StoredPushConfig;

/** The methods the wire contract knows (GetAdmin's verifiedNotificationMethods). */
export type WireStoredMethodConfig =
  | { case: 'email'; email: string }
  | { case: 'text'; phoneNumber: string }
  | { case: 'slack'; channelId: string; channelName: string; encryptedToken: string };

/**
 * Issue 23: "This device", a browser's Web Push subscription (services/web-push.ts). Its endpoint
 * and keys are a capability to notify the parent, so they are stored encrypted like Slack tokens;
 * it travels only through the push operations (GetPushSubscriptions…), never in GetAdmin.
 */
export interface StoredPushConfig {
  case: 'push';
  label: string;
  /** AES-256-GCM of the JSON `BrowserSubscription` */
  encryptedSubscription: string;
}

export function isPushConfig(config: StoredMethodConfig): config is StoredPushConfig {
  return config.case === 'push';
}

export function decryptPushSubscription(
  config: StoredPushConfig,
  tokens: TokenService,
): BrowserSubscription {
  return JSON.parse(tokens.decrypt(config.encryptedSubscription)) as BrowserSubscription;
}

/** One browser is one method per family, whoever turned it on. */
export function pushFingerprint(endpoint: string, tokens: TokenService): string {
  return tokens.hmac(JSON.stringify(['push', endpoint]));
}

export function toStoredConfig(
  config: NotificationMethodConfig,
  tokens: TokenService,
): WireStoredMethodConfig {
  switch (config.case) {
    case 'email':
      return { case: 'email', email: config.email };
    case 'text':
      return { case: 'text', phoneNumber: config.phoneNumber };
    case 'slack':
      return {
        case: 'slack',
        channelId: config.channelId,
        channelName: config.channelName,
        encryptedToken: tokens.encrypt(config.token),
      };
  }
}

export function decryptSlackToken(
  config: StoredMethodConfig & { case: 'slack' },
  tokens: TokenService,
) {
  return tokens.decrypt(config.encryptedToken);
}

/** `xoxb-…a1b2`: enough to recognise the token, never the secret. */
export function redactSlackToken(token: string): string {
  const prefix = token.startsWith('xoxb-') ? 'xoxb-' : '';
  return `${prefix}…${token.slice(-4)}`;
}

/** Wire form for outputs (GetAdmin): the Slack token redacted. */
export function toWireConfig(
  stored: WireStoredMethodConfig,
  tokens: TokenService,
): NotificationMethodConfig {
  if (stored.case !== 'slack') return stored;
  let redacted = '…';
  try {
    redacted = redactSlackToken(tokens.decrypt(stored.encryptedToken));
  } catch {
    // keys rotated or value damaged: still show the method
  }
  return {
    case: 'slack',
    channelId: stored.channelId,
    channelName: stored.channelName,
    token: redacted,
  };
}

export function configFingerprint(config: NotificationMethodConfig, tokens: TokenService): string {
  const canonical =
    config.case === 'email'
      ? ['email', config.email.trim().toLowerCase()]
      : config.case === 'text'
        ? ['text', config.phoneNumber]
        : ['slack', config.channelId, config.channelName, config.token];
  return tokens.hmac(JSON.stringify(canonical));
}
