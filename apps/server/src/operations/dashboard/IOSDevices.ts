import { dashboardResolver } from '../../pairql/resolver.ts';

// server-behaviour §3.11: the parent's iOS devices, by child name then device type (beyond the
// reference, with the child's id).
export default dashboardResolver('IOSDevices', async (_input, ctx) => {
  const rows = await ctx.db
    .selectFrom('ios_devices as d')
    .innerJoin('children as c', 'c.id', 'd.child_id')
    .select(['d.id', 'c.id as child_id', 'c.name as child_name', 'd.device_type', 'd.ios_version'])
    .where('c.parent_id', '=', ctx.parentId)
    .orderBy('c.name')
    .orderBy('d.device_type')
    .orderBy('d.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    childName: row.child_name,
    deviceType: row.device_type,
    osVersion: row.ios_version,
    childId: row.child_id,
  }));
});
