import { signupPasswordProblem } from '@keyward/domain/passwords';
import { validEmail } from '../../accounts/email-address.ts';
import { emailInUse } from '../../accounts/people.ts';
import { secondFactorMethods } from '../../accounts/second-factor.ts';
import { createSession } from '../../accounts/sessions.ts';
import { sendVerificationEmail } from '../../accounts/verification-email.ts';
import { addMs, DAY, toDbTime } from '../../db/values.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { hashPassword, verifyPassword } from '../../services/passwords.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { recordSecurityEvent } from '../../services/security-events.ts';
import { newToken } from '../../services/tokens.ts';

const PENDING_ACCOUNT_LIFETIME_MS = 3 * DAY;

// server-behaviour §2.4. Every existing-email case answers like a new signup ({}) unless the
// password proves ownership, so the response never reveals whether the address has an account.
export default dashboardResolver('Signup', async (input, ctx) => {
  const email = validEmail(input.email);
  const problem = signupPasswordProblem(input.password);
  if (problem) throw badRequest('5e2d7c90', `password: ${problem}`, problem);

  const { emailSendPerIp, emailSendPerEmail } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `signup:ip:${ctx.ip}`,
    emailSendPerIp.limit,
    emailSendPerIp.windowSeconds,
  );
  await ctx.services.rateLimit.consume(
    `signup:email:${email}`,
    emailSendPerEmail.limit,
    emailSendPerEmail.windowSeconds,
  );

  const existing = await ctx.db
    .selectFrom('parents')
    .select(['id', 'email', 'password_hash', 'subscription_status'])
    .where('email', '=', email)
    .executeTakeFirst();

  if (existing) {
    if (existing.subscription_status === 'pendingEmailVerification') {
      // The newest signup's password counts; hashing it also makes this answer take as long as a
      // new signup, so timing does not reveal a pending account.
      await ctx.db
        .updateTable('parents')
        .set({
          password_hash: await hashPassword(input.password),
          updated_at: toDbTime(ctx.clock.now()),
        })
        .where('id', '=', existing.id)
        .where('subscription_status', '=', 'pendingEmailVerification')
        .execute();
      await sendVerificationEmail(ctx, existing);
      return {};
    }
    const passwordMatches = await verifyPassword(existing.password_hash, input.password);
    // issue 12: with a second factor on, the signup form never opens a session (Login asks for it)
    if (passwordMatches && (await secondFactorMethods(ctx, existing.id)).length === 0) {
      const token = await createSession(ctx, existing.id);
      await recordSecurityEvent(ctx, existing.id, 'login', 'using email/password (signup form)');
      return { admin: { adminId: existing.id, token } };
    }
    await ctx.services.email.send('re-signup', existing.email, {
      loginUrl: `${ctx.dashboardUrl}/login`,
      resetUrl: `${ctx.dashboardUrl}/reset-password`,
    });
    if (!passwordMatches) {
      await recordSecurityEvent(ctx, existing.id, 'loginFailed', 'signup with an existing email');
    }
    return {};
  }

  // issue 12: a co-parent's email never becomes an account of its own (answered like an existing one)
  if (await emailInUse(ctx.db, email)) {
    await ctx.services.email.send('re-signup', email, {
      loginUrl: `${ctx.dashboardUrl}/login`,
      resetUrl: `${ctx.dashboardUrl}/reset-password`,
    });
    return {};
  }

  const now = ctx.clock.now();
  const parent = { id: newToken(), email };
  await ctx.db
    .insertInto('parents')
    .values({
      id: parent.id,
      email,
      password_hash: await hashPassword(input.password),
      subscription_id: null,
      subscription_status: 'pendingEmailVerification',
      subscription_status_expiration: toDbTime(addMs(now, PENDING_ACCOUNT_LIFETIME_MS)),
      gclid: input.gclid ?? null,
      created_at: toDbTime(now),
      updated_at: toDbTime(now),
    })
    .execute();
  await sendVerificationEmail(ctx, parent);
  return {};
});
