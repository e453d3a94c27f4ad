import type { AdminNotificationTrigger } from '@keyward/contract/shared';
import { ofPerson } from '../../accounts/people.ts';
import { fromDbJson } from '../../db/values.ts';
import {
  decryptPushSubscription,
  isPushConfig,
  type StoredMethodConfig,
} from '../../notifications/method-config.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';

// Issue 23: the person's "This device" methods (one per browser that turned notifications on),
// with the triggers each sends, and the server's VAPID public key the browser subscribes with.
export default dashboardResolver('GetPushSubscriptions', async (_input, ctx) => {
  const [methods, rules] = await Promise.all([
    ctx.db
      .selectFrom('notification_methods')
      .select(['id', 'config', 'created_at'])
      .where('parent_id', '=', ctx.parentId)
      .where(ofPerson(ctx))
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    ctx.db
      .selectFrom('notifications')
      .select(['method_id', 'trigger'])
      .where('parent_id', '=', ctx.parentId)
      .where(ofPerson(ctx))
      .orderBy('created_at')
      .orderBy('trigger')
      .execute(),
  ]);
  const subscriptions = methods.flatMap((method) => {
    const config = fromDbJson<StoredMethodConfig>(method.config);
    if (!isPushConfig(config)) return [];
    let endpoint = '';
    try {
      endpoint = decryptPushSubscription(config, ctx.services.tokens).endpoint;
    } catch {
      // keys rotated or value damaged: still listed, so it can be removed
    }
    const triggers: AdminNotificationTrigger[] = rules
      .filter((rule) => rule.method_id === method.id)
      .map((rule) => rule.trigger);
    return [
      { id: method.id, label: config.label, endpoint, triggers, createdAt: method.created_at },
    ];
  });
  return { vapidPublicKey: ctx.config.vapid.publicKey, subscriptions };
});
