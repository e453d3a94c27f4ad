import { deviceKindSource, newestFirst } from '../../devices/family-devices.ts';
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
  // the requests still decidable, as every kind of device has them (issue 20)
  const pending = (
    await deviceKindSource('ios').pendingRequests(ctx.db, {
      parentId: ctx.parentId,
      now: ctx.clock.now(),
      childId: device.child_id,
    })
  ).items
    .filter((item) => item.case === 'suspension' && item.device.id === device.id)
    .sort(newestFirst);
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
    pendingSuspensionRequests: pending.flatMap((item) =>
      item.case === 'suspension'
        ? [
            {
              id: item.id,
              createdAt: item.createdAt,
              duration: item.requestedDurationInSeconds,
              ...(item.requestComment === undefined ? {} : { comment: item.requestComment }),
            },
          ]
        : [],
    ),
  };
});
