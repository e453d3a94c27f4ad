import { SUSPENSION_REQUEST_EXPIRY_MS } from '@keyward/domain/suspension-grant';
import { toDbTime } from '../../db/values.ts';
import { customRules, enabledGroupIds, policyDomains } from '../../ios/rules.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedIosDevice } from '../ownership.ts';

// server-behaviour §3.11: an own iOS device with every block group, the enabled ones, the web
// policy with its domains, and the device's custom rules. Beyond the reference: the child's id and
// the device's suspension requests that can still be decided (pending, under 2 hours old), newest
// first, so the device page links each to the suspension page.
export default dashboardResolver('GetIOSDevice', async (id, ctx) => {
  const device = await ownedIosDevice(ctx.db, ctx.parentId, id);
  const groups = await ctx.db
    .selectFrom('ios_block_groups')
    .select(['id', 'name'])
    .orderBy('name')
    .execute();
  const since = toDbTime(new Date(ctx.clock.now().getTime() - SUSPENSION_REQUEST_EXPIRY_MS));
  const pending = await ctx.db
    .selectFrom('ios_suspend_filter_requests')
    .select(['id', 'created_at', 'duration', 'request_comment'])
    .where('device_id', '=', device.id)
    .where('status', '=', 'pending')
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return {
    childName: device.child_name,
    deviceType: device.device_type,
    osVersion: device.ios_version,
    allBlockGroups: groups,
    enabledBlockGroups: await enabledGroupIds(ctx.db, device.id),
    webPolicy: device.web_policy,
    webPolicyDomains: await policyDomains(ctx.db, device.id),
    customBlockRules: await customRules(ctx.db, device.id),
    childId: device.child_id,
    pendingSuspensionRequests: pending.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      duration: row.duration,
      ...(row.request_comment === null ? {} : { comment: row.request_comment }),
    })),
  };
});
