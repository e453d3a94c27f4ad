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
  | { kind: 'fallbackEmail'; noRulesAtAll: boolean }
  | { kind: 'nothing' };

/** Triggers that reach the account email when the family has no rule of their own (issue 32). */
export const FALLBACK_TRIGGERS: readonly AdminNotificationTrigger[] = [
  'activityAlert',
  'unlockRequestSubmitted',
  'suspendFilterRequestSubmitted',
];

export function hasFallback(trigger: AdminNotificationTrigger): boolean {
  return FALLBACK_TRIGGERS.includes(trigger);
}

/**
 * The family's rules whose trigger matches, each method once (so one event never sends the same
 * message twice through one method). A trigger with no rule of its own (issue 32: even when rules of
 * other triggers exist) falls back to an email to the account address for alerts, unlock and
 * suspend-filter requests, so a self-harm alert always reaches someone; security events have no
 * fallback.
 */
export function planDispatch<Rule extends { trigger: AdminNotificationTrigger; methodId: string }>(
  rules: readonly Rule[],
  trigger: AdminNotificationTrigger,
): DispatchPlan<Rule> {
  const seen = new Set<string>();
  const matching = rules.filter((rule) => {
    if (rule.trigger !== trigger || seen.has(rule.methodId)) return false;
    seen.add(rule.methodId);
    return true;
  });
  if (matching.length > 0) return { kind: 'rules', rules: matching };
  return hasFallback(trigger)
    ? { kind: 'fallbackEmail', noRulesAtAll: rules.length === 0 }
    : { kind: 'nothing' };
}

/** Who one trigger reaches, as Settings shows it (issue 32). */
export type TriggerReach =
  | { kind: 'methods'; methodIds: string[] }
  | { kind: 'accountEmail' }
  | { kind: 'nobody' };

export function triggerReach(
  rules: readonly { trigger: AdminNotificationTrigger; methodId: string }[],
  trigger: AdminNotificationTrigger,
): TriggerReach {
  const plan = planDispatch(rules, trigger);
  if (plan.kind === 'rules')
    return { kind: 'methods', methodIds: plan.rules.map((r) => r.methodId) };
  return plan.kind === 'fallbackEmail' ? { kind: 'accountEmail' } : { kind: 'nobody' };
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
