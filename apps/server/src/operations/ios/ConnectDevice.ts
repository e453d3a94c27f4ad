import type { IosAppParsedInput } from '@keyward/contract/ios';
import type { Db } from '../../db/database.ts';
import { toDbTime } from '../../db/values.ts';
import { spendConnectionCode } from '../../devices/connection-codes.ts';
import { unauthorized } from '../../pairql/errors.ts';
import { iosResolver } from '../../pairql/resolver.ts';
import { hashToken, newToken } from '../../services/tokens.ts';

// server-behaviour §5: an iPhone or iPad connects with the same 6-digit codes as Macs. A new device
// starts with every block group on and the web policy `blockAll`. The same device (vendor id) of the
// same family connecting again is re-pointed to the code's child and keeps its settings; its old
// tokens stop working.

const codeNotFound = () =>
  unauthorized(
    '79483727',
    'Connection code not found or expired',
    'Connection code expired, or not found. Please create a new code and try again.',
  );

export default iosResolver('ConnectDevice', async (input, ctx) => {
  const child = await spendConnectionCode(ctx, input.verificationCode, codeNotFound);
  const token = newToken();
  const at = toDbTime(ctx.clock.now());
  const deviceId = await ctx.db.transaction().execute(async (trx) => {
    const id = await bindDevice(trx, input, child, at);
    await trx
      .insertInto('ios_app_tokens')
      .values({
        id: newToken(),
        token_hash: hashToken(token),
        device_id: id,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  });
  return { childId: child.id, token, deviceId, childName: child.name };
});

async function bindDevice(
  trx: Db,
  input: IosAppParsedInput<'ConnectDevice'>,
  child: { id: string; parentId: string },
  at: string,
): Promise<string> {
  const metadata = {
    device_type: input.deviceType,
    app_version: input.appVersion,
    ios_version: input.iosVersion,
    updated_at: at,
  };
  const known = await trx
    .selectFrom('ios_devices as d')
    .innerJoin('children as c', 'c.id', 'd.child_id')
    .select('d.id')
    .where('d.vendor_id', '=', input.vendorId)
    .where('c.parent_id', '=', child.parentId)
    .executeTakeFirst();
  if (known) {
    await trx
      .updateTable('ios_devices')
      .set({ ...metadata, child_id: child.id })
      .where('id', '=', known.id)
      .execute();
    await trx.deleteFrom('ios_app_tokens').where('device_id', '=', known.id).execute();
    return known.id;
  }

  const id = newToken();
  await trx
    .insertInto('ios_devices')
    .values({
      id,
      child_id: child.id,
      vendor_id: input.vendorId,
      web_policy: 'blockAll',
      created_at: at,
      ...metadata,
    })
    .execute();
  const groups = await trx.selectFrom('ios_block_groups').select('id').execute();
  if (groups.length > 0) {
    await trx
      .insertInto('ios_device_block_groups')
      .values(
        groups.map((group) => ({
          id: newToken(),
          device_id: id,
          block_group_id: group.id,
          created_at: at,
        })),
      )
      .execute();
  }
  return id;
}
