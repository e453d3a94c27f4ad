import { emailInUse, emailTaken, mintInvitation } from '../../accounts/people.ts';
import { validEmail } from '../../accounts/email-address.ts';
import { toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { newToken } from '../../services/tokens.ts';
import { ownedParent } from '../ownership.ts';

// Issue 12 (owner only: pairql/roles.ts). Invites an adult as a co-parent, or sends a pending
// invitation again (a new 7-day link; older links keep working until they expire).
export default dashboardResolver('InviteParent', async (input, ctx) => {
  const email = validEmail(input.email);
  const { emailSendPerEmail, emailSendPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `invite-parent:parent:${ctx.parentId}`,
    emailSendPerIp.limit,
    emailSendPerIp.windowSeconds,
  );
  await ctx.services.rateLimit.consume(
    `invite-parent:email:${email}`,
    emailSendPerEmail.limit,
    emailSendPerEmail.windowSeconds,
  );
  const owner = await ownedParent(ctx.db, ctx.parentId, ctx.parentId);
  if (email === owner.email) {
    throw badRequest(
      'c0fa0e14',
      'inviting the owner',
      'You are already the owner of this account.',
    );
  }

  const existing = await ctx.db
    .selectFrom('co_parents')
    .select(['id', 'parent_id', 'status'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (existing && existing.parent_id === ctx.parentId && existing.status === 'active') {
    throw badRequest(
      'c0fa0e15',
      'co-parent already active',
      'This person is already a parent of your family.',
    );
  }
  if (existing && existing.parent_id !== ctx.parentId) throw emailTaken();
  if (!existing && (await emailInUse(ctx.db, email))) throw emailTaken();

  const now = toDbTime(ctx.clock.now());
  const token = await ctx.db.transaction().execute(async (trx) => {
    const tx = { ...ctx, db: trx };
    let coParentId = existing?.id;
    if (!coParentId) {
      coParentId = newToken();
      await trx
        .insertInto('co_parents')
        .values({
          id: coParentId,
          parent_id: ctx.parentId,
          email,
          password_hash: null,
          status: 'invited',
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    await recordSecurityEvent(tx, ctx.parentId, 'coParentInvited', email);
    return mintInvitation(tx, coParentId);
  });
  await ctx.services.email.send('parent-invite', email, {
    url: `${ctx.dashboardUrl}/parent-invite/${token}`,
    ownerEmail: owner.email,
  });
  return { success: true };
});
