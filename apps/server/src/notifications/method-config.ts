import type { NotificationMethodConfig } from '@keyward/contract/shared';
import type { TokenService } from '../services/tokens.ts';

// How notification-method configs are stored (notification_methods.config and
// pending_notification_methods.config): the wire config, except that Slack's `token` is replaced
// by `encryptedToken` (AES-256-GCM, services/tokens.ts). `config_fingerprint` is the HMAC of the
// canonical plaintext config, so a parent cannot verify the same method twice.

export type StoredMethodConfig =
  | { case: 'email'; email: string }
  | { case: 'text'; phoneNumber: string }
  | { case: 'slack'; channelId: string; channelName: string; encryptedToken: string };

export function toStoredConfig(
  config: NotificationMethodConfig,
  tokens: TokenService,
): StoredMethodConfig {
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
  stored: StoredMethodConfig,
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
