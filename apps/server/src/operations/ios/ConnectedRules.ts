import { toDbTime } from '../../db/values.ts';
import { enforcedRules } from '../../ios/rules.ts';
import { toIosBlockRule, toIosWebPolicy } from '../../ios/wire.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: what the device enforces; the call also refreshes its metadata. Stored in the
// dashboard's shapes, answered in the app's (ios/wire.ts): `{"blockAllExcept": {"_0": [...]}}`, and
// a flowTypeIs rule's value as `{"browser": {}}`.
export default iosResolver('ConnectedRules', async (input, ctx) => {
  const device = await ctx.db
    .updateTable('ios_devices')
    .set({
      vendor_id: input.vendorId,
      device_type: input.deviceType,
      app_version: input.appVersion,
      ios_version: input.iosVersion,
      updated_at: toDbTime(ctx.clock.now()),
    })
    .where('id', '=', ctx.deviceId)
    .returning('web_policy')
    .executeTakeFirstOrThrow();
  const rules = await enforcedRules(ctx.db, ctx.deviceId, device.web_policy);
  return {
    blockRules: rules.blockRules.map(toIosBlockRule),
    webPolicy: toIosWebPolicy(rules.webPolicy.case, rules.webPolicy.domains ?? []),
  };
});
