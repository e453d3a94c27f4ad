import { websiteDomain } from '@keyward/domain/keys';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { newToken } from '../../services/tokens.ts';
import { ownedIosDevice } from '../ownership.ts';

/** A pasted address may carry a path; longer input is not read at all. */
const MAX_DOMAIN_INPUT = 2048;

// server-behaviour §3.11: in one transaction, replace the enabled block groups, set the web policy
// and replace the domain list (blank and repeated domains dropped, as the editor does; each read
// by the key wizard's address rules, and what is not a website refused).
export default dashboardResolver('UpdateIOSDevice', async (input, ctx) => {
  const device = await ownedIosDevice(ctx.db, ctx.parentId, input.deviceId);
  const groupIds = [...new Set(input.enabledBlockGroups)];
  if (groupIds.length > 0) {
    const known = await ctx.db
      .selectFrom('ios_block_groups')
      .select('id')
      .where('id', 'in', groupIds)
      .execute();
    if (known.length !== groupIds.length) {
      throw badRequest(
        'b7c1d9e3',
        'enabledBlockGroups names a block group that does not exist',
        'One of the block groups no longer exists. Reload the page and try again.',
      );
    }
  }
  const domains: string[] = [];
  for (const raw of input.webPolicyDomains) {
    if (raw.trim() === '') continue;
    // issue 20: the key wizard's address rules, so a pasted address stores (and blocks) its site
    const check = raw.length > MAX_DOMAIN_INPUT ? undefined : websiteDomain(raw);
    if (!check?.ok) {
      const shown = raw.trim().slice(0, 50);
      throw badRequest(
        '0e6a2f48',
        `webPolicyDomains: "${shown}" is not a domain`,
        check && !check.ok
          ? `${check.error} Enter a domain such as khanacademy.org.`
          : `"${shown}" is not a website address. Enter a domain such as khanacademy.org.`,
      );
    }
    if (!domains.includes(check.domain)) domains.push(check.domain);
  }

  const at = toDbTime(ctx.clock.now());
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('ios_devices')
      .set({ web_policy: input.webPolicy, updated_at: at })
      .where('id', '=', device.id)
      .execute();
    await trx.deleteFrom('ios_device_block_groups').where('device_id', '=', device.id).execute();
    if (groupIds.length > 0) {
      await trx
        .insertInto('ios_device_block_groups')
        .values(
          groupIds.map((groupId) => ({
            id: newToken(),
            device_id: device.id,
            block_group_id: groupId,
            created_at: at,
          })),
        )
        .execute();
    }
    await trx.deleteFrom('ios_web_policy_domains').where('device_id', '=', device.id).execute();
    if (domains.length > 0) {
      await trx
        .insertInto('ios_web_policy_domains')
        .values(
          domains.map((domain) => ({
            id: newToken(),
            device_id: device.id,
            domain,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
    }
  });
  return { success: true };
});
