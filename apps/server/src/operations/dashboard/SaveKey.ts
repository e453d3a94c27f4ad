import type { SharedKey } from '@keyward/contract/shared';
import { type AppNameOf, appNamesOf, describeKeyNamingApps } from '@keyward/domain/keys';
import type { Db } from '../../db/database.ts';
import { toDbJson, toDbTime } from '../../db/values.ts';
import { optionalText } from '../../keychains/keychain-input.ts';
import { isUnexpired } from '../../keychains/keychain-rows.ts';
import { checkSharedKey, expirationColumn } from '../../keychains/key-input.ts';
import { badRequest, notFound } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { isAlreadyCreated, ownedKey, ownedKeychain } from '../ownership.ts';
import { asksForWhatIsStored, createdWithOtherContent } from '../repeated-create.ts';

// server-behaviour §3.4: a key of an own keychain. The key must pass the wizard's address rules,
// else badRequest naming the problem and nothing is stored. `deleted_at` holds the expiration.
export default dashboardResolver('SaveKey', async (input, ctx) => {
  const now = ctx.clock.now();
  const keychain = await ownedKeychain(ctx.db, ctx.parentId, input.keychainId);
  checkSharedKey(input.key);
  const expiration = expirationColumn(input.expiration, now);
  const comment = optionalText(input.comment);
  const nowText = toDbTime(now);

  if (input.isNew) {
    const appNames = await appNamesFor(ctx.db, input.key);
    const isRepeated = await ctx.db.transaction().execute(async (trx) => {
      const taken = await trx
        .selectFrom('keys')
        .select(['id', 'keychain_id'])
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (
        taken?.keychain_id === keychain.id &&
        (await isAlreadyCreated(() => ownedKey(trx, ctx.parentId, input.id)))
      ) {
        // the same create sent again (issue 20), asking for what is stored (issue 31)
        const stored = await trx
          .selectFrom('keys')
          .select(['key', 'comment', 'deleted_at'])
          .where('id', '=', input.id)
          .executeTakeFirstOrThrow();
        const wanted = { key: toDbJson(input.key), comment, deleted_at: expiration };
        const columns = { key: 'json', comment: 'text', deleted_at: 'text' } as const;
        if (!asksForWhatIsStored(stored, wanted, columns)) {
          throw createdWithOtherContent('Key', input.id);
        }
        return true;
      }
      if (taken) {
        throw badRequest(
          '04fb27a8',
          `Key id ${input.id} already exists`,
          'This key could not be created. Please reload the page and try again.',
        );
      }
      await trx
        .insertInto('keys')
        .values({
          id: input.id,
          keychain_id: keychain.id,
          key: toDbJson(input.key),
          comment,
          created_at: nowText,
          updated_at: nowText,
          deleted_at: expiration,
        })
        .execute();
      await recordSecurityEvent(
        { ...ctx, db: trx },
        ctx.parentId,
        'keyCreated',
        `keychain: ${keychain.name}, key: ${describeKeyNamingApps(input.key, appNames)}`,
      );
      return false;
    });
    if (isRepeated) return { success: true };
  } else {
    // An expired key is invisible everywhere, so it cannot be edited either.
    const key = await ownedKey(ctx.db, ctx.parentId, input.id);
    const isVisible = key.deleted_at === null || key.deleted_at > nowText;
    if (key.keychain_id !== keychain.id || !isVisible) throw notFound('Key');
    await ctx.db.transaction().execute((trx) =>
      trx
        .updateTable('keys')
        .set({ key: toDbJson(input.key), comment, deleted_at: expiration, updated_at: nowText })
        .where('id', '=', key.id)
        .where('keychain_id', '=', keychain.id)
        .where(isUnexpired(now))
        .execute(),
    );
  }

  await ctx.services.push.toKeychainHolders(keychain.id, { case: 'userUpdated' });
  return { success: true };
});

/** The catalogue name of the app a key names by slug, so the event reads 'Zoom', not 'zoom'. */
async function appNamesFor(db: Db, key: SharedKey): Promise<AppNameOf> {
  const single =
    key.type === 'skeleton'
      ? key.scope
      : key.scope.type === 'single'
        ? key.scope.single
        : undefined;
  if (single?.type !== 'identifiedAppSlug') return appNamesOf([]);
  const app = await db
    .selectFrom('identified_apps')
    .select(['slug', 'name'])
    .where('slug', '=', single.identifiedAppSlug)
    .executeTakeFirst();
  return appNamesOf(app ? [app] : []);
}
