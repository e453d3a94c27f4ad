import { dnsModelIdentifier } from '@keyward/domain/device-models';
import { toDbTime } from '../../db/values.ts';
import { appleProfileUrlOf, dohUrlOf, dotHostnameOf } from '../../dns/device-urls.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { newToken } from '../../services/tokens.ts';
import { ownedChild } from '../ownership.ts';

// Issue 33: a device filtered by Keyward DNS, for one of the parent's children. It is a computer
// of kind `dns` with one computer user, the child (as a browser is of kind `browser`), so its
// status, requests, removal (DeleteEntity_v2 computerUser), notifications and budgets are the
// same rows and code. Its id is the computer user's: the DoH path and the DoT server name carry it.
export default dashboardResolver('CreateDnsDevice', async (input, ctx) => {
  const child = await ownedChild(ctx.db, ctx.parentId, input.childId);
  const { limit, windowSeconds } = RATE_LIMITS.dnsDevicePerParent;
  await ctx.services.rateLimit.consume(`dnsDevice:parent:${ctx.parentId}`, limit, windowSeconds);

  const now = toDbTime(ctx.clock.now());
  const computerId = newToken();
  const computerUserId = newToken();
  const name = input.name.trim();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('computers')
      .values({
        id: computerId,
        parent_id: ctx.parentId,
        custom_name: name,
        model_identifier: dnsModelIdentifier(input.kind),
        // a DNS device has no serial number; the column is unique, so it gets its own id
        serial_number: `dns-${computerId}`,
        kind: 'dns',
        platform: input.kind,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await trx
      .insertInto('computer_users')
      .values({
        id: computerUserId,
        child_id: child.id,
        computer_id: computerId,
        app_version: 'dns',
        username: 'dns',
        full_username: name,
        numeric_id: 0,
        is_admin: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  const isApple = input.kind === 'ios' || input.kind === 'macos';
  return {
    id: computerUserId,
    dohUrl: dohUrlOf(ctx.config, computerUserId),
    dotHostname: dotHostnameOf(ctx.config, computerUserId),
    ...(isApple ? { appleProfileUrl: appleProfileUrlOf(ctx.config, computerUserId) } : {}),
  };
});
