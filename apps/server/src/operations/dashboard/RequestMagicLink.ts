import { validEmail } from '../../accounts/email-address.ts';
import { mintOneTimeToken } from '../../accounts/one-time-tokens.ts';
import { findActiveCoParentByEmail } from '../../accounts/people.ts';
import { sendVerificationEmail } from '../../accounts/verification-email.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';

/** Only a relative dashboard path with exactly one leading slash survives (no open redirects). */
export function safeRedirect(redirect: string | undefined): string | undefined {
  if (redirect === undefined) return undefined;
  if (!/^\/(?![/\\])/.test(redirect)) return undefined;
  if (/[\\\s]/.test(redirect) || [...redirect].some((c) => c.charCodeAt(0) < 32)) {
    return undefined;
  }
  return redirect;
}

// server-behaviour §2.7. Always success; the email differs, the response does not.
export default dashboardResolver('RequestMagicLink', async (input, ctx) => {
  const email = validEmail(input.email);
  const { emailSendPerIp, emailSendPerEmail } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `magic-link:ip:${ctx.ip}`,
    emailSendPerIp.limit,
    emailSendPerIp.windowSeconds,
  );
  await ctx.services.rateLimit.consume(
    `magic-link:email:${email}`,
    emailSendPerEmail.limit,
    emailSendPerEmail.windowSeconds,
  );

  const parent = await ctx.db
    .selectFrom('parents')
    .select(['id', 'email', 'subscription_status'])
    .where('email', '=', email)
    .executeTakeFirst();

  // issue 12: a co-parent's link signs in that co-parent
  const coParent = parent ? undefined : await findActiveCoParentByEmail(ctx.db, email);
  if (coParent) {
    const token = await mintOneTimeToken(ctx, coParent.parent_id, 'magicLink', coParent.id);
    const redirect = safeRedirect(input.redirect);
    const query = redirect ? `?redirect=${encodeURIComponent(redirect)}` : '';
    await ctx.services.email.send('magic-link', coParent.email, {
      url: `${ctx.dashboardUrl}/otp/${token}${query}`,
    });
  } else if (!parent) {
    await ctx.services.email.send('magic-link-no-account', email, {
      signupUrl: `${ctx.dashboardUrl}/signup`,
    });
  } else if (parent.subscription_status === 'pendingEmailVerification') {
    // a pending account never gets a session by any route
    await sendVerificationEmail(ctx, parent);
  } else {
    const token = await mintOneTimeToken(ctx, parent.id, 'magicLink');
    const redirect = safeRedirect(input.redirect);
    const query = redirect ? `?redirect=${encodeURIComponent(redirect)}` : '';
    await ctx.services.email.send('magic-link', parent.email, {
      url: `${ctx.dashboardUrl}/otp/${token}${query}`,
    });
  }
  return { success: true };
});
