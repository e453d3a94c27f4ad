import type { AdminNotificationTrigger, NotificationMethodConfig } from '@keyward/contract/shared';
import { looksLikeEmail, normaliseEmail } from './email.ts';
import { normalisePhone } from './phone.ts';

// Parent notifications: the rules shared by the server (server-behaviour §3.8, §6.1) and the
// dashboard's Settings (spec "Notification methods").

// ---------------------------------------------------------------------------
// Dispatch (§6.1)

/** What one event sends: through the matching rules, a fallback email, or nothing. */
export type DispatchPlan<Rule> =
  | { kind: 'rules'; rules: Rule[] }
  | { kind: 'fallbackEmail' }
  | { kind: 'nothing' };

/**
 * A parent with at least one rule of ANY trigger gets exactly the rules whose trigger matches (none
 * may match: then nothing is sent). A parent with no rules at all gets a fallback email to the account
 * address for unlock and suspend-filter requests; security events have no fallback. Each method is
 * used once per event, so one event never sends the same message twice through one method.
 */
export function planDispatch<Rule extends { trigger: AdminNotificationTrigger; methodId: string }>(
  rules: readonly Rule[],
  trigger: AdminNotificationTrigger,
): DispatchPlan<Rule> {
  if (rules.length === 0) {
    return trigger === 'adminChildSecurityEvent' ? { kind: 'nothing' } : { kind: 'fallbackEmail' };
  }
  const seen = new Set<string>();
  const matching = rules.filter((rule) => {
    if (rule.trigger !== trigger || seen.has(rule.methodId)) return false;
    seen.add(rule.methodId);
    return true;
  });
  return matching.length === 0 ? { kind: 'nothing' } : { kind: 'rules', rules: matching };
}

// ---------------------------------------------------------------------------
// Method configs (spec "Notification methods"; §3.8)

export const SLACK_TOKEN_PREFIX = 'xoxb-';
export const MIN_SLACK_CHANNEL_NAME = 2;
export const MIN_SLACK_CHANNEL_ID = 4;
/** Longest accepted value of any config field (an address, a channel, a token). */
export const MAX_METHOD_FIELD = 255;

export type MethodConfigCheck =
  | { ok: true; config: NotificationMethodConfig }
  | { ok: false; message: string };

/**
 * The config as it is stored and compared (email trimmed and lowercased, phone in E.164, Slack
 * fields trimmed), or the parent-facing reason it cannot be used.
 */
export function checkNotificationMethodConfig(config: NotificationMethodConfig): MethodConfigCheck {
  switch (config.case) {
    case 'email': {
      const email = normaliseEmail(config.email);
      if (!looksLikeEmail(email) || email.length > MAX_METHOD_FIELD) {
        return { ok: false, message: 'Please enter a valid email address.' };
      }
      return { ok: true, config: { case: 'email', email } };
    }
    case 'text': {
      const phoneNumber = normalisePhone(config.phoneNumber);
      if (phoneNumber === null) {
        return {
          ok: false,
          message: 'Please enter a valid phone number (7 to 15 digits, with the country code).',
        };
      }
      return { ok: true, config: { case: 'text', phoneNumber } };
    }
    case 'slack': {
      const token = config.token.trim();
      const channelName = config.channelName.trim();
      const channelId = config.channelId.trim();
      if (!token.startsWith(SLACK_TOKEN_PREFIX) || token.length > MAX_METHOD_FIELD) {
        return { ok: false, message: 'The Slack bot token must start with xoxb-.' };
      }
      if (channelName.length < MIN_SLACK_CHANNEL_NAME || channelName.length > MAX_METHOD_FIELD) {
        return { ok: false, message: 'The Slack channel name needs at least 2 characters.' };
      }
      if (channelId.length < MIN_SLACK_CHANNEL_ID || channelId.length > MAX_METHOD_FIELD) {
        return { ok: false, message: 'The Slack channel ID needs at least 4 characters.' };
      }
      return { ok: true, config: { case: 'slack', channelId, channelName, token } };
    }
  }
}

/**
 * The spec's deletable flag: a method can be deleted unless a notification uses it or it is the
 * email method for the account's own address.
 */
export function isMethodDeletable(
  method: { id: string; config: NotificationMethodConfig },
  notifications: readonly { methodId: string }[],
  accountEmail: string,
): boolean {
  if (notifications.some((n) => n.methodId === method.id)) return false;
  return !(
    method.config.case === 'email' &&
    normaliseEmail(method.config.email) === normaliseEmail(accountEmail)
  );
}
