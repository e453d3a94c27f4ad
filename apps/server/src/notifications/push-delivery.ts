import { PUSH_DECIDE_PATH, PushSuspensionAction, type PushMessage } from '@keyward/contract/push';
import { alertCategoriesInWords } from '@keyward/domain/alert-categories';
import { securityEventSummary } from '@keyward/domain/security-events';
import type { RequestContext } from '../pairql/context.ts';
import { durationInWords } from '../services/mail-templates.ts';
import { pushTopic } from '../services/web-push.ts';
import type { NotificationFacts } from './content.ts';
import { decryptPushSubscription, type StoredPushConfig } from './method-config.ts';
import { mintActionToken, SUSPENSION_ACTIONS } from './push-actions.ts';
import { minutesInWords } from '@keyward/domain/screen-time';

// Issue 23: one parent notification through the "This device" method (Web Push). The message is
// the JSON the service worker (apps/web/build/service-worker.js) shows: a title, a body, the page
// to open, and a `tag` per child and trigger, so the next grouped notification about that child
// replaces the previous one on the phone instead of piling up (the same Topic replaces one still
// waiting at the push service). A single suspension request also carries the one-tap decisions
// and their action token (push-actions.ts).

const HOUR_SECONDS = 60 * 60;

/** What sending a notification needs of the request (dispatch.ts passes it on). */
export type NotifyContext = Pick<
  RequestContext,
  'db' | 'config' | 'clock' | 'services' | 'log' | 'dashboardUrl'
>;

/** The message's words and page, without the action token. */
export function pushMessage(facts: NotificationFacts): PushMessage {
  const n = facts.notification;
  const url = new URL(facts.url);
  const base = {
    tag: `${n.trigger}:${n.childId}`,
    url: `${url.pathname}${url.search}`,
  };
  switch (n.trigger) {
    case 'unlockRequestSubmitted': {
      const [first] = facts.targets;
      return {
        ...base,
        title: `Unlock request from ${n.childName}`,
        body:
          facts.count === 1
            ? `${n.childName} asks to unlock ${first ?? 'a blocked site or app'}.`
            : `${n.childName} sent ${facts.count} unlock requests${first ? `, including ${first}` : ''}.`,
      };
    }
    case 'suspendFilterRequestSubmitted': {
      const count = n.count ?? 1;
      const duration = durationInWords(n.durationSeconds);
      const comment = n.comment ? ` "${n.comment}"` : '';
      if (n.moreTimeMinutes !== undefined) {
        return {
          ...base,
          tag: `moreTime:${n.childId}`,
          title: `${n.childName} asks for more time`,
          body:
            count === 1
              ? `${n.childName} asks for ${minutesInWords(n.moreTimeMinutes)} more screen time today.${comment}`
              : `${n.childName} asked ${count} times for more screen time, the latest for ${minutesInWords(n.moreTimeMinutes)}.${comment}`,
        };
      }
      return {
        ...base,
        title: `Suspension request from ${n.childName}`,
        body:
          count === 1
            ? `${n.childName} asks to turn the filter off for ${duration}.${comment}`
            : `${n.childName} sent ${count} suspension requests, the latest for ${duration}.${comment}`,
      };
    }
    case 'adminChildSecurityEvent': {
      const count = n.count ?? 1;
      const summary = securityEventSummary(n.event, n.detail);
      return {
        ...base,
        title: `Security event for ${n.childName}`,
        body: count === 1 ? summary : `${count} security events, the latest: ${summary}`,
      };
    }
    case 'activityAlert': {
      // the categories only: what the child typed never leaves the server
      const categories = alertCategoriesInWords(n.categories);
      return {
        ...base,
        title: `Alert on what ${n.childName} typed`,
        body:
          n.count === 1
            ? `Something ${n.childName} typed matched an alert (${categories}).`
            : `${n.count} things ${n.childName} typed matched alerts (${categories}).`,
      };
    }
  }
}

export async function sendPush(
  ctx: NotifyContext,
  method: { id: string; personId: string | null },
  config: StoredPushConfig,
  facts: NotificationFacts,
): Promise<void> {
  const n = facts.notification;
  const message = pushMessage(facts);
  // a request of either kind for time (issue 34: more screen time too) can be decided from here
  if (n.trigger === 'suspendFilterRequestSubmitted' && (n.count ?? 1) === 1) {
    message.actions = PushSuspensionAction.options.map((action) => ({
      action,
      title: SUSPENSION_ACTIONS[action].title,
    }));
    message.actionToken = await mintActionToken(ctx.db, ctx.services.tokens, ctx.clock.now(), {
      parentId: n.parentId,
      personId: method.personId,
      requestId: n.requestId,
      methodId: method.id,
    });
    message.decideUrl = PUSH_DECIDE_PATH;
  }
  const outcome = await ctx.services.webPush.send(
    decryptPushSubscription(config, ctx.services.tokens),
    JSON.stringify(message),
    {
      topic: pushTopic(message.tag),
      // a suspension request can be decided for 2 hours; the others stay news for a day
      ttlSeconds:
        n.trigger === 'suspendFilterRequestSubmitted' ? 2 * HOUR_SECONDS : 24 * HOUR_SECONDS,
      urgency: n.trigger === 'adminChildSecurityEvent' ? 'normal' : 'high',
    },
  );
  if (outcome === 'gone') {
    // the browser ended its subscription (uninstalled, permission withdrawn): the method goes,
    // and its rules with it (foreign key cascade)
    await ctx.db
      .deleteFrom('notification_methods')
      .where('id', '=', method.id)
      .where('parent_id', '=', n.parentId)
      .execute();
    ctx.log.info(
      { parentId: n.parentId, methodId: method.id },
      'parent notification: push subscription gone, "This device" method removed',
    );
  }
}
