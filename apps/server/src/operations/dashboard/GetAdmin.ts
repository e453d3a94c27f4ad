import { wireSubscriptionStatus } from '../../accounts/subscription-status.ts';
import { fromDbJson } from '../../db/values.ts';
import {
  isPushConfig,
  type StoredMethodConfig,
  toWireConfig,
  type WireStoredMethodConfig,
} from '../../notifications/method-config.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ofPerson } from '../../accounts/people.ts';
import { ownedParent } from '../ownership.ts';

// server-behaviour §3.8
export default dashboardResolver('GetAdmin', async (_input, ctx) => {
  const parent = await ownedParent(ctx.db, ctx.parentId, ctx.parentId);
  const [notifications, methods, adminUser] = await Promise.all([
    ctx.db
      .selectFrom('notifications')
      .select(['id', 'trigger', 'method_id'])
      .where('parent_id', '=', ctx.parentId)
      .where(ofPerson(ctx))
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    ctx.db
      .selectFrom('notification_methods')
      .select(['id', 'config'])
      .where('parent_id', '=', ctx.parentId)
      .where(ofPerson(ctx))
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    ctx.db
      .selectFrom('computer_users as cu')
      .innerJoin('children as c', 'c.id', 'cu.child_id')
      .select('cu.id')
      .where('c.parent_id', '=', ctx.parentId)
      .where('cu.is_admin', '=', 1)
      .limit(1)
      .executeTakeFirst(),
  ]);

  // issue 23: "This device" methods and their rules travel through GetPushSubscriptions only, so
  // the reference dashboard never meets a method case it does not know (docs/push.md)
  const pushMethodIds = new Set<string>();
  const wireMethods: { id: string; config: WireStoredMethodConfig }[] = [];
  for (const method of methods) {
    const config = fromDbJson<StoredMethodConfig>(method.config);
    if (isPushConfig(config)) pushMethodIds.add(method.id);
    else wireMethods.push({ id: method.id, config });
  }

  return {
    id: parent.id,
    email: parent.email,
    subscriptionStatus: wireSubscriptionStatus(
      parent.subscription_status,
      parent.subscription_status_expiration,
      ctx.clock.now(),
      ctx.config.billing,
    ),
    notifications: notifications
      .filter((n) => !pushMethodIds.has(n.method_id))
      .map((n) => ({
        id: n.id,
        trigger: n.trigger,
        methodId: n.method_id,
      })),
    verifiedNotificationMethods: wireMethods.map((m) => ({
      id: m.id,
      config: toWireConfig(m.config, ctx.services.tokens),
    })),
    hasAdminChild: adminUser !== undefined,
    monthlyPriceInDollars: parent.monthly_price / 100,
    // issue 12: the dashboard hides owner-only actions from co-parents
    ...(ctx.role === 'coParent' ? { role: 'coParent' as const } : {}),
  };
});
