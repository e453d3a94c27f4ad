import { resetPasswordProblem } from '@keyward/domain/passwords';
import {
  lookupOneTimeToken,
  markTokenUsed,
  revokeOneTimeTokens,
} from '../../accounts/one-time-tokens.ts';
import { revokePersonSessions } from '../../accounts/people.ts';
import { revokeAllSessions } from '../../accounts/sessions.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { hashPassword } from '../../services/passwords.ts';
import { RATE_LIMITS } from '../../services/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// server-behaviour §2.7. A bad token is a soft failure ({ success: false }), not an error.
export default dashboardResolver('ResetPassword', async (input, ctx) => {
  const problem = resetPasswordProblem(input.password);
  if (problem) throw badRequest('8c41f0d7', `password: ${problem}`, problem);
  const { tokenRedeemPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `reset-password:ip:${ctx.ip}`,
    tokenRedeemPerIp.limit,
    tokenRedeemPerIp.windowSeconds,
  );

  const lookup = await lookupOneTimeToken(ctx, input.token, 'passwordReset');
  if (lookup.state !== 'valid') return { success: false };
  const parentId = lookup.row.parent_id;
  const passwordHash = await hashPassword(input.password);
  // issue 12: a co-parent's reset changes only that person's password and sessions
  const coParentId = lookup.row.person_id;
  if (coParentId !== null) {
    const changed = await ctx.db.transaction().execute(async (trx) => {
      const tx = { ...ctx, db: trx };
      if (!(await markTokenUsed(tx, lookup.row.id))) return false;
      await trx
        .updateTable('co_parents')
        .set({ password_hash: passwordHash, updated_at: toDbTime(ctx.clock.now()) })
        .where('id', '=', coParentId)
        .execute();
      await revokePersonSessions(tx, coParentId);
      return true;
    });
    if (!changed) return { success: false };
    await recordSecurityEvent(ctx, parentId, 'passwordChanged', 'co-parent');
    return { success: true };
  }
  // Spending the token, the new password, signing out every session and spending every other
  // magic-link and reset token happen together or not at all.
  const isChanged = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (!(await markTokenUsed(tx, lookup.row.id))) return false;
    await trx
      .updateTable('parents')
      .set({ password_hash: passwordHash, updated_at: toDbTime(ctx.clock.now()) })
      .where('id', '=', parentId)
      .execute();
    await revokeAllSessions(tx, parentId);
    await revokeOneTimeTokens(tx, parentId, ['magicLink', 'passwordReset']);
    return true;
  });
  if (!isChanged) return { success: false };
  await recordSecurityEvent(ctx, parentId, 'passwordChanged');
  return { success: true };
});
