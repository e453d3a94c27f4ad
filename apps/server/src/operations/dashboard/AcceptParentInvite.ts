import { signupPasswordProblem } from '@keyward/domain/passwords';
import { findValidInvitation } from '../../accounts/people.ts';
import { createSession } from '../../accounts/sessions.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest, unauthorized } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { hashPassword } from '../../services/passwords.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

export const INVITATION_NOT_VALID_MESSAGE =
  'This invitation link is not valid any more. Ask the account owner to send a new one.';

const notValid = () =>
  unauthorized(
    'c0fa0e16',
    'Parent invitation not found, expired, already used or revoked',
    INVITATION_NOT_VALID_MESSAGE,
  );

// Issue 12 (public): the invitee chooses a password from the emailed link and is signed in.
export default dashboardResolver('AcceptParentInvite', async (input, ctx) => {
  const problem = signupPasswordProblem(input.password);
  if (problem) throw badRequest('c0fa0e17', `password: ${problem}`, problem);
  const { tokenRedeemPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `accept-invite:ip:${ctx.ip}`,
    tokenRedeemPerIp.limit,
    tokenRedeemPerIp.windowSeconds,
  );
  const invitation = await findValidInvitation(ctx, input.token);
  if (!invitation) throw notValid();
  const passwordHash = await hashPassword(input.password);
  const now = toDbTime(ctx.clock.now());
  const token = await ctx.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('parent_invitations')
      .set({ used_at: now })
      .where('id', '=', invitation.invitationId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    const activated = await trx
      .updateTable('co_parents')
      .set({ password_hash: passwordHash, status: 'active', updated_at: now })
      .where('id', '=', invitation.coParentId)
      .where('status', '=', 'invited')
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1 || Number(activated.numUpdatedRows) !== 1) {
      return undefined;
    }
    return createSession({ ...ctx, db: trx }, invitation.parentId, invitation.coParentId);
  });
  if (!token) throw notValid();
  await recordSecurityEvent(ctx, invitation.parentId, 'coParentJoined', invitation.email);
  return { adminId: invitation.parentId, token };
});
