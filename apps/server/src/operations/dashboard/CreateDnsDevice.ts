import { dnsModelIdentifier } from '@keyward/domain/device-models';
import { DNS_ESSENTIALS_KEYCHAINS } from '@keyward/domain/dns-status';
import { lockChildRow } from '../../db/conflicts.ts';
import { badRequest } from '../../pairql/errors.ts';
import { toDbTime } from '../../db/values.ts';
import { dohUrlOf, dotHostnameOf, parentAppleProfileUrlOf } from '../../dns/device-urls.ts';
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

  const isApple = input.kind === 'ios' || input.kind === 'macos';
  if (input.removalPassword !== undefined && !isApple) {
    const words = 'Only an Apple configuration profile (iPhone, iPad, Mac) has a removal password.';
    throw badRequest('d5e1a7c3', words, words);
  }
  const essentials =
    input.withEssentials && input.kind !== 'other'
      ? DNS_ESSENTIALS_KEYCHAINS[input.kind]
      : undefined;
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
        // kept encrypted: it is written into the profile, never shown again
        dns_removal_password_encrypted:
          input.removalPassword === undefined
            ? null
            : ctx.services.tokens.encrypt(input.removalPassword),
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
    if (essentials) {
      // what the system needs to stay online (issue 33), unless the child already holds it
      await lockChildRow(trx, child.id);
      const held = await trx
        .selectFrom('child_keychains')
        .select('id')
        .where('child_id', '=', child.id)
        .where('keychain_id', '=', essentials.id)
        .executeTakeFirst();
      if (!held) {
        await trx
          .insertInto('child_keychains')
          .values({
            id: newToken(),
            child_id: child.id,
            keychain_id: essentials.id,
            schedule: null,
            created_at: now,
          })
          .execute();
      }
    }
  });
  // the child's other devices check in again (a new keychain), as ToggleChildKeychain's
  if (essentials) await ctx.services.push.toChildren([child.id], { case: 'userUpdated' });
  return {
    id: computerUserId,
    dohUrl: dohUrlOf(ctx.config, computerUserId),
    dotHostname: dotHostnameOf(ctx.config, computerUserId),
    ...(isApple
      ? {
          appleProfileUrl: parentAppleProfileUrlOf(
            ctx.config,
            ctx.services.tokens,
            computerUserId,
            input.removalPassword !== undefined,
            ctx.clock.now(),
          ),
        }
      : {}),
  };
});
