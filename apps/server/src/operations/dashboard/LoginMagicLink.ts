import { lookupOneTimeToken, markTokenUsed } from '../../accounts/one-time-tokens.ts';
import { sessionOrChallenge } from '../../accounts/second-factor.ts';
import { unauthorized } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';

const tokenNotFound = () =>
  unauthorized(
    '9a314d21',
    'Magic link token not found, expired or already used',
    'Magic Link token not found, or expired. Please try again.',
    { dashboardTag: 'magicLinkTokenNotFound' },
  );

// server-behaviour §2.7
export default dashboardResolver('LoginMagicLink', async (input, ctx) => {
  const { tokenRedeemPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `magic-login:ip:${ctx.ip}`,
    tokenRedeemPerIp.limit,
    tokenRedeemPerIp.windowSeconds,
  );

  const lookup = await lookupOneTimeToken(ctx, input.token, 'magicLink');
  if (lookup.state !== 'valid') throw tokenNotFound();
  const parent = await ctx.db
    .selectFrom('parents')
    .select(['id', 'subscription_status'])
    .where('id', '=', lookup.row.parent_id)
    .executeTakeFirst();
  if (!parent || parent.subscription_status === 'pendingEmailVerification') throw tokenNotFound();
  if (!(await markTokenUsed(ctx, lookup.row.id))) throw tokenNotFound();

  // issue 12: a co-parent's link signs in that co-parent (a removed one's tokens are gone with them)
  const coParentId = lookup.row.person_id;
  if (coParentId !== null) {
    return sessionOrChallenge(
      ctx,
      { parentId: parent.id, personId: coParentId },
      'co-parent using magic link',
    );
  }

  // a session, or a second-factor challenge when the person has one (issue 12)
  return sessionOrChallenge(ctx, { parentId: parent.id, personId: parent.id }, 'using magic link');
});
