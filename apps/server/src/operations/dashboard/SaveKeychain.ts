import { toDbBool, toDbTime } from '../../db/values.ts';
import { keychainName, optionalText } from '../../keychains/keychain-input.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { isAlreadyCreated, ownedKeychain } from '../ownership.ts';
import { asksForWhatIsStored, createdWithOtherContent } from '../repeated-create.ts';

// server-behaviour §3.4 and wire-contract §3.6: isNew creates a private keychain with the client's
// id (an id already taken → badRequest, that row untouched); otherwise renames/re-describes an own
// keychain (public keychains of others are notFound) and tells the Macs holding it.
export default dashboardResolver('SaveKeychain', async (input, ctx) => {
  const name = keychainName(input.name);
  const description = optionalText(input.description);
  const now = toDbTime(ctx.clock.now());

  if (input.isNew) {
    await ctx.db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('keychains')
        .select('id')
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (taken && (await isAlreadyCreated(() => ownedKeychain(trx, ctx.parentId, input.id)))) {
        // the same create sent again (issue 20), asking for what is stored (issue 31)
        const stored = await trx
          .selectFrom('keychains')
          .select(['name', 'description'])
          .where('id', '=', input.id)
          .executeTakeFirstOrThrow();
        if (
          !asksForWhatIsStored(stored, { name, description }, { name: 'text', description: 'text' })
        ) {
          throw createdWithOtherContent('Keychain', input.id);
        }
        return;
      }
      if (taken) {
        throw badRequest(
          '03ebda6e',
          `Keychain id ${input.id} already exists`,
          'This keychain could not be created. Please reload the page and try again.',
        );
      }
      await trx
        .insertInto('keychains')
        .values({
          id: input.id,
          parent_id: ctx.parentId,
          name,
          description,
          warning: null,
          is_public: toDbBool(false),
          created_at: now,
          updated_at: now,
        })
        .execute();
      await recordSecurityEvent(
        { ...ctx, db: trx },
        ctx.parentId,
        'keychainCreated',
        `name: ${name}`,
      );
    });
    return { success: true };
  }

  const keychain = await ownedKeychain(ctx.db, ctx.parentId, input.id);
  await ctx.db
    .transaction()
    .execute((trx) =>
      trx
        .updateTable('keychains')
        .set({ name, description, updated_at: now })
        .where('id', '=', keychain.id)
        .where('parent_id', '=', ctx.parentId)
        .execute(),
    );
  await ctx.services.push.toKeychainHolders(keychain.id, { case: 'userUpdated' });
  return { success: true };
});
