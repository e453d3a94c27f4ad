import { normaliseEmail } from '@keyward/domain/email';
import { sessionOrChallenge } from '../../accounts/second-factor.ts';
import { loginCoParent } from '../../accounts/people.ts';
import { sendVerificationEmail } from '../../accounts/verification-email.ts';
import { unauthorized } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { spendPasswordCheck, verifyPassword } from '../../services/passwords.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';

const incorrect = () =>
  unauthorized('1e087878', 'Incorrect email or password', 'Incorrect email or password');

// server-behaviour §2.6. One message for an unknown email and a wrong password.
export default dashboardResolver('Login', async (input, ctx) => {
  const email = normaliseEmail(input.email);
  const { loginPerIp, loginFailuresPerEmail } = RATE_LIMITS;
  const failuresBucket = `login-failures:email:${email}`;
  await ctx.services.rateLimit.consume(
    `login:ip:${ctx.ip}`,
    loginPerIp.limit,
    loginPerIp.windowSeconds,
  );
  // Taken before the password is checked, so parallel guesses evaluate at most the budget.
  const attempt = await ctx.services.rateLimit.reserve(
    failuresBucket,
    loginFailuresPerEmail.limit,
    loginFailuresPerEmail.windowSeconds,
  );

  const parent = await ctx.db
    .selectFrom('parents')
    .select(['id', 'email', 'password_hash', 'subscription_status'])
    .where('email', '=', email)
    .executeTakeFirst();

  if (!parent) {
    // issue 12: a co-parent logs in with their own email and password (accounts/people.ts)
    const coParent = await loginCoParent(ctx, email, input.password);
    if (coParent === 'incorrect') throw incorrect();
    if (coParent) {
      await attempt.refund();
      return sessionOrChallenge(ctx, coParent, `co-parent ${email} using email/password`);
    }
    await spendPasswordCheck(input.password);
    throw incorrect();
  }

  if (parent.subscription_status === 'pendingEmailVerification') {
    await attempt.refund();
    await sendVerificationEmail(ctx, parent);
    throw unauthorized(
      '4b5bbea0',
      'Email not verified; verification email re-sent',
      'You may not login until your email is verified. Please check your email for a new verification link.',
    );
  }

  if (!(await verifyPassword(parent.password_hash, input.password))) {
    await recordSecurityEvent(ctx, parent.id, 'loginFailed', 'incorrect password');
    throw incorrect();
  }

  await attempt.refund();
  // a session, or a second-factor challenge when the person has one (issue 12)
  return sessionOrChallenge(
    ctx,
    { parentId: parent.id, personId: parent.id },
    'using email/password',
  );
});
