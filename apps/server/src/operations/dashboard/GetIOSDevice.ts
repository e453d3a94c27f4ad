import { customRules, enabledGroupIds, policyDomains } from '../../ios/rules.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedIosDevice } from '../ownership.ts';

// server-behaviour §3.11: an own iOS device with every block group, the enabled ones, the web
// policy with its domains, and the device's custom rules.
export default dashboardResolver('GetIOSDevice', async (id, ctx) => {
  const device = await ownedIosDevice(ctx.db, ctx.parentId, id);
  const groups = await ctx.db
    .selectFrom('ios_block_groups')
    .select(['id', 'name'])
    .orderBy('name')
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
  };
});
