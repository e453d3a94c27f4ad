import { resetPasswordProblem } from '@keyward/domain/passwords';
import {
  lookupOneTimeToken,
  markTokenUsed,
  revokeOneTimeTokens,
} from '../../accounts/one-time-tokens.ts';
import { personEmail } from '../../accounts/people.ts';
import { revokeSessionsOf } from '../../accounts/sessions.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { hashPassword } from '../../services/passwords.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// server-behaviour §2.7. A bad token is a soft failure ({ success: false }), not an error.
// Issue 12: the token names one person (the owner, or a co-parent by person_id); the reset changes
// that person's password, ends that person's sessions and spends that person's other magic links
// and reset links. The family's other parents keep their sessions and links.
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
  const coParentId = lookup.row.person_id;
  const person = { parentId, personId: coParentId ?? parentId };
  const passwordHash = await hashPassword(input.password);
  // Spending the token, the new password, ending the person's sessions and spending their other
  // tokens happen together or not at all.
  const isChanged = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    if (!(await markTokenUsed(tx, lookup.row.id))) return false;
    const now = toDbTime(ctx.clock.now());
    if (coParentId === null) {
      await trx
        .updateTable('parents')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', parentId)
        .execute();
    } else {
      await trx
        .updateTable('co_parents')
        .set({ password_hash: passwordHash, updated_at: now })
        .where('id', '=', coParentId)
        .where('parent_id', '=', parentId)
        .execute();
    }
    await revokeSessionsOf(tx, person);
    await revokeOneTimeTokens(tx, person, ['magicLink', 'passwordReset']);
    return true;
  });
  if (!isChanged) return { success: false };
  const detail =
    coParentId === null
      ? undefined
      : `co-parent ${await personEmail(ctx.db, parentId, coParentId)}`;
  await recordSecurityEvent(ctx, parentId, 'passwordChanged', detail);
  return { success: true };
});
