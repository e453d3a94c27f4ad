import { toDbTime } from '../../db/values.ts';
import { browserModelIdentifier, describeModel } from '@keyward/domain/device-models';
import { uninstallUrl } from '../../devices/browsers.ts';
import { spendConnectionCode } from '../../devices/connection-codes.ts';
import { unauthorized } from '../../pairql/errors.ts';
import { browserResolver } from '../../pairql/resolver.ts';
import { hashToken, newToken } from '../../services/tokens.ts';

// Issue 22: the extension's setup page connects the browser to a child with the parent's
// connection code (the same codes as Macs and iPhones). Each connection is a new browser: a
// computer of kind `browser` with one computer user, the child, and its token.

function codeNotFound() {
  return unauthorized(
    '5c0e2a7b',
    'Connection code not found or expired',
    'That code did not work: it may have expired (codes last an hour) or been mistyped. Ask your parent for a new code.',
    { appTag: 'connectionCodeNotFound' },
  );
}

export default browserResolver('ConnectBrowser', async (input, ctx) => {
  const child = await spendConnectionCode(ctx, input.code, codeNotFound);
  const now = toDbTime(ctx.clock.now());
  const token = newToken();
  const computerId = newToken();
  const computerUserId = newToken();
  const modelIdentifier = browserModelIdentifier(input.browser, input.platform);
  const name = input.deviceName ?? describeModel(modelIdentifier).title;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('computers')
      .values({
        id: computerId,
        parent_id: child.parentId,
        custom_name: input.deviceName ?? null,
        // "Chrome on Windows" wherever the dashboard names a computer by its model
        model_identifier: modelIdentifier,
        // a browser has no serial number; the column is unique, so it gets its own id
        serial_number: `browser-${computerId}`,
        filter_version: input.extensionVersion,
        os_version: input.browserVersion,
        kind: 'browser',
        platform: input.platform,
        browser: input.browser,
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
        app_version: input.extensionVersion,
        username: 'browser',
        full_username: name,
        numeric_id: 0,
        is_admin: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await trx
      .insertInto('mac_app_tokens')
      .values({
        id: newToken(),
        token_hash: hashToken(token),
        child_id: child.id,
        computer_user_id: computerUserId,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      })
      .execute();
  });
  return {
    token,
    deviceId: computerUserId,
    childId: child.id,
    childName: child.name,
    uninstallUrl: uninstallUrl(ctx.config, computerUserId),
  };
});
