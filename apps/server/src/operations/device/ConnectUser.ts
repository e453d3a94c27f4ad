import type { ConnectUserInput } from '@keyward/contract/device';
import { retryLostRaces } from '../../db/conflicts.ts';
import type { Db } from '../../db/database.ts';
import { addMs, DAY, fromDbInt, toDbBool, toDbTime } from '../../db/values.ts';
import { spendConnectionCode } from '../../devices/connection-codes.ts';
import { toSwiftIsoDate } from '@keyward/contract/swift';
import { loadUserData } from '../../devices/user-data.ts';
import { badRequest, unauthorized } from '../../pairql/errors.ts';
import { deviceResolver } from '../../pairql/resolver.ts';
import { hashToken, newToken } from '../../services/tokens.ts';

// server-behaviour §4.1: a child's Mac account connects with a connection code from the dashboard.

/** Retired tokens keep working this long, so a re-assigned Mac can still send buffered activity. */
export const RETIRED_TOKEN_GRACE_MS = 14 * DAY;

function codeNotFound() {
  return unauthorized(
    '6e7fc234',
    'Connection code not found or expired',
    'Connection code expired, or not found. Please create a new code and try again.',
    { appTag: 'connectionCodeNotFound' },
  );
}

function belongsToAnotherParent(debugMessage: string) {
  return unauthorized(
    '41a43089',
    debugMessage,
    'This user is associated with another parent account.',
  );
}

/** The contract leaves these unbounded; the serial number is a unique (indexed) column. */
const MAX_MAC_TEXT = 255;

export default deviceResolver('ConnectUser', async (input, ctx) => {
  const texts = [input.serialNumber, input.modelIdentifier, input.username, input.fullUsername];
  if (texts.some((text) => text.length > MAX_MAC_TEXT)) {
    throw badRequest(
      'f1532059',
      `serialNumber, modelIdentifier, username and fullUsername hold at most ${MAX_MAC_TEXT} characters`,
    );
  }
  const child = await spendConnectionCode(ctx, input.verificationCode, codeNotFound);
  const now = ctx.clock.now();
  const token = newToken();

  // The code is spent, so a Mac whose row another connection created meanwhile (same serial
  // number) binds again here rather than through the router's retry.
  const bind = () =>
    ctx.db.transaction().execute(async (trx) => {
      const id = await bindComputerUser(trx, input, child, now);
      await trx
        .insertInto('mac_app_tokens')
        .values({
          id: newToken(),
          token_hash: hashToken(token),
          child_id: child.id,
          computer_user_id: id,
          created_at: toDbTime(now),
          updated_at: toDbTime(now),
          deleted_at: null,
        })
        .execute();
      return id;
    });
  const computerUserId = await retryLostRaces(bind, () => undefined);

  const userData = await loadUserData(ctx.db, child.id);
  return { ...userData, token, deviceId: computerUserId, connectedAt: toSwiftIsoDate(now) };
});

/** Creates or re-points the computer and its computer user; returns the computer-user id. */
async function bindComputerUser(
  trx: Db,
  input: ConnectUserInput,
  child: { id: string; parentId: string },
  now: Date,
): Promise<string> {
  const at = toDbTime(now);
  const computer = await trx
    .selectFrom('computers')
    .select(['id', 'parent_id'])
    .where('serial_number', '=', input.serialNumber)
    .executeTakeFirst();

  if (computer) {
    const existing = await trx
      .selectFrom('computer_users as cu')
      .innerJoin('children as c', 'c.id', 'cu.child_id')
      .select(['cu.id', 'c.parent_id'])
      .where('cu.computer_id', '=', computer.id)
      .where('cu.numeric_id', '=', input.numericId)
      .executeTakeFirst();
    if (existing) {
      if (existing.parent_id !== child.parentId) {
        throw belongsToAnotherParent('The macOS user is connected to another parent’s child');
      }
      await repointComputerUser(trx, existing.id, input, child.id, now);
      await refreshComputer(trx, computer.id, input, at);
      return existing.id;
    }

    if (computer.parent_id !== child.parentId) {
      const stillUsed = await trx
        .selectFrom('computer_users as cu')
        .innerJoin('children as c', 'c.id', 'cu.child_id')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('cu.computer_id', '=', computer.id)
        .where('c.parent_id', '=', computer.parent_id)
        .executeTakeFirstOrThrow();
      if (fromDbInt(stillUsed.count) > 0) {
        throw belongsToAnotherParent('The computer is still used by another parent’s children');
      }
      await trx
        .updateTable('computers')
        .set({
          parent_id: child.parentId,
          custom_name: null,
          app_release_channel: 'stable',
          updated_at: at,
        })
        .where('id', '=', computer.id)
        .execute();
    }
    await refreshComputer(trx, computer.id, input, at);
    return createComputerUser(trx, computer.id, input, child.id, at);
  }

  const computerId = newToken();
  await trx
    .insertInto('computers')
    .values({
      id: computerId,
      parent_id: child.parentId,
      custom_name: null,
      model_identifier: input.modelIdentifier,
      serial_number: input.serialNumber,
      filter_version: null,
      os_version: input.osVersion?.trim() || null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return createComputerUser(trx, computerId, input, child.id, at);
}

async function refreshComputer(trx: Db, computerId: string, input: ConnectUserInput, at: string) {
  const osVersion = input.osVersion?.trim();
  await trx
    .updateTable('computers')
    .set({
      model_identifier: input.modelIdentifier,
      ...(osVersion ? { os_version: osVersion } : {}),
      updated_at: at,
    })
    .where('id', '=', computerId)
    .execute();
}

async function createComputerUser(
  trx: Db,
  computerId: string,
  input: ConnectUserInput,
  childId: string,
  at: string,
): Promise<string> {
  const id = newToken();
  await trx
    .insertInto('computer_users')
    .values({
      id,
      child_id: childId,
      computer_id: computerId,
      app_version: input.appVersion,
      username: input.username,
      full_username: input.fullUsername,
      numeric_id: input.numericId,
      is_admin: input.isAdmin === undefined ? null : toDbBool(input.isAdmin),
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

/** The same macOS account, now for `childId`: its earlier tokens enter their grace period. */
async function repointComputerUser(
  trx: Db,
  computerUserId: string,
  input: ConnectUserInput,
  childId: string,
  now: Date,
) {
  const at = toDbTime(now);
  await trx
    .updateTable('computer_users')
    .set({
      child_id: childId,
      app_version: input.appVersion,
      username: input.username,
      full_username: input.fullUsername,
      ...(input.isAdmin === undefined ? {} : { is_admin: toDbBool(input.isAdmin) }),
      updated_at: at,
    })
    .where('id', '=', computerUserId)
    .execute();
  await trx
    .updateTable('mac_app_tokens')
    .set({ deleted_at: toDbTime(addMs(now, RETIRED_TOKEN_GRACE_MS)), updated_at: at })
    .where('computer_user_id', '=', computerUserId)
    .where('deleted_at', 'is', null)
    .execute();
}
