import { wireSubscriptionStatus } from '../../accounts/subscription-status.ts';
import { fromDbJson } from '../../db/values.ts';
import { type StoredMethodConfig, toWireConfig } from '../../notifications/method-config.ts';
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

  return {
    id: parent.id,
    email: parent.email,
    subscriptionStatus: wireSubscriptionStatus(
      parent.subscription_status,
      parent.subscription_status_expiration,
      ctx.clock.now(),
      ctx.config.billing,
    ),
    notifications: notifications.map((n) => ({
      id: n.id,
      trigger: n.trigger,
      methodId: n.method_id,
    })),
    verifiedNotificationMethods: methods.map((m) => ({
      id: m.id,
      config: toWireConfig(fromDbJson<StoredMethodConfig>(m.config), ctx.services.tokens),
    })),
    hasAdminChild: adminUser !== undefined,
    monthlyPriceInDollars: parent.monthly_price / 100,
    // issue 12: the dashboard hides owner-only actions from co-parents
    ...(ctx.role === 'coParent' ? { role: 'coParent' as const } : {}),
  };
});
