import { validEmail } from '../../accounts/email-address.ts';
import { mintOneTimeToken } from '../../accounts/one-time-tokens.ts';
import { findActiveCoParentByEmail } from '../../accounts/people.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

// server-behaviour §2.7. Always success; only the email differs.
export default dashboardResolver('SendPasswordResetEmail', async (input, ctx) => {
  const email = validEmail(input.email);
  const { emailSendPerIp, emailSendPerEmail } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `reset:ip:${ctx.ip}`,
    emailSendPerIp.limit,
    emailSendPerIp.windowSeconds,
  );
  await ctx.services.rateLimit.consume(
    `reset:email:${email}`,
    emailSendPerEmail.limit,
    emailSendPerEmail.windowSeconds,
  );

  const parent = await ctx.db
    .selectFrom('parents')
    .select(['id', 'email'])
    .where('email', '=', email)
    .executeTakeFirst();

  // issue 12: a co-parent resets their own password
  const coParent = parent ? undefined : await findActiveCoParentByEmail(ctx.db, email);
  if (coParent) {
    const token = await mintOneTimeToken(ctx, coParent.parent_id, 'passwordReset', coParent.id);
    await recordSecurityEvent(ctx, coParent.parent_id, 'passwordResetRequested', coParent.email);
    await ctx.services.email.send('password-reset', coParent.email, {
      url: `${ctx.dashboardUrl}/reset-password/${token}`,
    });
    return { success: true };
  }
  if (!parent) {
    await ctx.services.email.send('password-reset-no-account', email, {
      signupUrl: `${ctx.dashboardUrl}/signup`,
    });
    return { success: true };
  }
  const token = await mintOneTimeToken(ctx, parent.id, 'passwordReset');
  await recordSecurityEvent(ctx, parent.id, 'passwordResetRequested');
  await ctx.services.email.send('password-reset', parent.email, {
    url: `${ctx.dashboardUrl}/reset-password/${token}`,
  });
  return { success: true };
});
