import type { AdminNotificationTrigger } from '@keyward/contract/shared';
import { alertCategoriesInWords } from '@keyward/domain/alert-categories';
import { planDispatch } from '@keyward/domain/notifications';
import { securityEventSummary, securityEventWording } from '@keyward/domain/security-events';
import { fromDbJson } from '../db/values.ts';
import { RATE_LIMITS } from '../pairql/rate-limit.ts';
import {
  MAX_LISTED_TARGETS,
  type NotificationFacts,
  notificationUrl,
  type ParentNotification,
  plainText,
} from './content.ts';
import type { FallbackParagraph } from '../services/mail-templates.ts';
import { decryptSlackToken, type StoredMethodConfig } from './method-config.ts';
import { type NotifyContext, sendPush } from './push-delivery.ts';

// Parent notifications (server-behaviour §6). The single entry point that triggers call AFTER their
// transaction has committed. It never throws: each rule is sent independently, a failing channel is
// logged at error level and neither stops the others nor fails the child's request.
//
// INTERFACE CONTRACT (shared between the requests code and the notifications code):
//   await notifyParent(ctx, { trigger: 'unlockRequestSubmitted', parentId, childId, childName,
//                             requestIds: [...] })
//   await notifyParent(ctx, { trigger: 'suspendFilterRequestSubmitted', parentId, childId, childName,
//                             requestId, durationSeconds, comment, link?, count? })
//   await notifyParent(ctx, { trigger: 'adminChildSecurityEvent', parentId, childId, childName,
//                             event, detail?, count? })
//   await notifyParent(ctx, { trigger: 'activityAlert', parentId, childId, childName, count,
//                             categories })
// The implementation builds the §6.2 texts and links itself from these fields. `count` (issue 19):
// the notification stands for that many requests or events of the child (notifications/child-writes.ts groups
// them), the other fields describe the latest.
//
// Issue 19: each method sends at most its hourly ceiling (RATE_LIMITS.notificationsPer…Method;
// the fallback email counts as one method of the family); beyond it the message is left out and
// logged, and the dashboard still lists everything.

// What to say (content.ts) → whom to tell (this file) → how to deliver (push-delivery.ts): the
// notification itself is defined with its words, the context it is sent with by its delivery.
export type { NotifyContext, ParentNotification };

export async function notifyParent(
  ctx: NotifyContext,
  notification: ParentNotification,
): Promise<void> {
  try {
    const rules = await loadRules(ctx, notification.parentId);
    const plan = planDispatch(rules, notification.trigger);
    if (plan.kind === 'nothing') {
      ctx.log.info(
        { trigger: notification.trigger, parentId: notification.parentId },
        'parent notification: no rule for this trigger (it has no fallback)',
      );
      return;
    }
    const facts = await factsOf(ctx, notification);
    if (plan.kind === 'fallbackEmail') {
      await attempt(ctx, notification, 'fallback email', async () => {
        const bucket = `notifications:fallback:${notification.parentId}`;
        if (await withinCeiling(ctx, notification, bucket, 'email')) {
          await sendFallbackEmail(ctx, facts, plan.noRulesAtAll);
        }
      });
      return;
    }
    await Promise.all(
      plan.rules.map((rule) =>
        attempt(ctx, notification, `rule ${rule.id} (${rule.config.case})`, async () => {
          const bucket = `notifications:method:${rule.methodId}`;
          if (await withinCeiling(ctx, notification, bucket, rule.config.case)) {
            await sendThroughMethod(ctx, rule, facts);
          }
        }),
      ),
    );
  } catch (error) {
    ctx.log.error(
      { err: error, trigger: notification.trigger, parentId: notification.parentId },
      'parent notification failed',
    );
  }
}

const CEILINGS = {
  email: RATE_LIMITS.notificationsPerEmailMethod,
  text: RATE_LIMITS.notificationsPerTextMethod,
  slack: RATE_LIMITS.notificationsPerSlackMethod,
  push: RATE_LIMITS.notificationsPerPushMethod,
} as const;

/** Counts one message of the method; false (logged) when its hourly ceiling is reached. */
async function withinCeiling(
  ctx: NotifyContext,
  notification: ParentNotification,
  bucket: string,
  method: keyof typeof CEILINGS,
): Promise<boolean> {
  const { limit, windowSeconds } = CEILINGS[method];
  if (await ctx.services.rateLimit.tryConsume(bucket, limit, windowSeconds)) return true;
  ctx.log.warn(
    { trigger: notification.trigger, parentId: notification.parentId, bucket },
    `parent notification left out: the ${method} method's hourly ceiling is reached`,
  );
  return false;
}

interface Rule {
  id: string;
  trigger: AdminNotificationTrigger;
  methodId: string;
  /** the person the method belongs to (null = the owner) */
  personId: string | null;
  config: StoredMethodConfig;
}

async function loadRules(ctx: NotifyContext, parentId: string): Promise<Rule[]> {
  const rows = await ctx.db
    .selectFrom('notifications as n')
    .innerJoin('notification_methods as m', 'm.id', 'n.method_id')
    .select(['n.id', 'n.trigger', 'n.method_id', 'm.person_id', 'm.config'])
    .where('n.parent_id', '=', parentId)
    .where('m.parent_id', '=', parentId)
    .orderBy('n.created_at')
    .orderBy('n.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    trigger: row.trigger,
    methodId: row.method_id,
    personId: row.person_id,
    config: fromDbJson<StoredMethodConfig>(row.config),
  }));
}

/** One delivery: a failure is logged at error level and never reaches the caller or the others. */
async function attempt(
  ctx: NotifyContext,
  notification: ParentNotification,
  what: string,
  send: () => Promise<void>,
): Promise<void> {
  try {
    await send();
  } catch (error) {
    ctx.log.error(
      { err: error, trigger: notification.trigger, parentId: notification.parentId },
      `parent notification: ${what} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

async function factsOf(
  ctx: NotifyContext,
  notification: ParentNotification,
): Promise<NotificationFacts> {
  let targets: string[] = [];
  let count = 1;
  let comment: string | null = null;
  if (notification.trigger === 'unlockRequestSubmitted') {
    const ids = [...new Set(notification.requestIds.map((id) => id.toLowerCase()))];
    count = Math.max(1, ids.length);
    if (ids.length > 0) {
      const rows = await ctx.db
        .selectFrom('unlock_requests as r')
        .innerJoin('computer_users as cu', 'cu.id', 'r.computer_user_id')
        .select([
          'r.id',
          'r.url',
          'r.hostname',
          'r.ip_address',
          'r.app_bundle_id',
          'r.request_comment',
        ])
        .where('r.id', 'in', ids.slice(0, MAX_LISTED_TARGETS))
        .where('cu.child_id', '=', notification.childId)
        .execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      const ordered = ids.flatMap((id) => byId.get(id) ?? []);
      targets = ordered.map((r) => r.url ?? r.hostname ?? r.ip_address ?? r.app_bundle_id);
      comment = ordered.find((r) => r.request_comment)?.request_comment ?? null;
    }
  }
  return {
    notification,
    url: notificationUrl(ctx.dashboardUrl, notification, count),
    targets,
    count,
    comment,
  };
}

async function sendThroughMethod(
  ctx: NotifyContext,
  { config, methodId, personId }: Rule,
  facts: NotificationFacts,
): Promise<void> {
  switch (config.case) {
    case 'email':
      return sendEmail(ctx, config.email, facts);
    case 'text':
      return ctx.services.sms.send(config.phoneNumber, plainText(ctx.config.appName, facts));
    case 'slack':
      return ctx.services.slack.post({
        token: decryptSlackToken(config, ctx.services.tokens),
        channelId: config.channelId,
        channelName: config.channelName,
        text: plainText(ctx.config.appName, facts),
      });
    case 'push':
      return sendPush(ctx, { id: methodId, personId }, config, facts);
  }
}

async function sendFallbackEmail(
  ctx: NotifyContext,
  facts: NotificationFacts,
  noRulesAtAll: boolean,
): Promise<void> {
  const parent = await ctx.db
    .selectFrom('parents')
    .select('email')
    .where('id', '=', facts.notification.parentId)
    .executeTakeFirst();
  if (!parent) throw new Error('parent not found');
  const settingsUrl = `${ctx.dashboardUrl.replace(/\/$/, '')}/settings`;
  await sendEmail(ctx, parent.email, facts, { settingsUrl, noRulesAtAll });
}

async function sendEmail(
  ctx: NotifyContext,
  to: string,
  facts: NotificationFacts,
  fallback?: FallbackParagraph,
): Promise<void> {
  const n = facts.notification;
  switch (n.trigger) {
    case 'unlockRequestSubmitted':
      return ctx.services.email.send('notify-unlock-request', to, {
        childName: n.childName,
        count: facts.count,
        targets: facts.targets,
        comment: facts.comment,
        url: facts.url,
        fallback,
      });
    case 'suspendFilterRequestSubmitted':
      if (n.moreTimeMinutes !== undefined) {
        return ctx.services.email.send('notify-more-time', to, {
          childName: n.childName,
          count: n.count ?? 1,
          minutes: n.moreTimeMinutes,
          comment: n.comment,
          url: facts.url,
          fallback,
        });
      }
      return ctx.services.email.send('notify-suspend-filter', to, {
        childName: n.childName,
        count: n.count ?? 1,
        durationSeconds: n.durationSeconds,
        comment: n.comment,
        url: facts.url,
        fallback,
      });
    case 'adminChildSecurityEvent':
      return ctx.services.email.send('notify-security-event', to, {
        childName: n.childName,
        count: n.count ?? 1,
        summary: securityEventSummary(n.event, n.detail),
        explanation: securityEventWording(n.event)?.explanation ?? null,
        url: facts.url,
      });
    case 'activityAlert':
      return ctx.services.email.send('notify-activity-alert', to, {
        childName: n.childName,
        count: n.count,
        categories: alertCategoriesInWords(n.categories),
        url: facts.url,
        fallback,
      });
  }
}
