import type { RequestContext } from '../pairql/context.ts';
import { mintOneTimeToken } from './one-time-tokens.ts';

/** Mints a 24-hour verification token and sends `initial-signup` (a failure propagates → 500). */
export async function sendVerificationEmail(
  ctx: RequestContext,
  parent: { id: string; email: string },
): Promise<void> {
  const token = await mintOneTimeToken(ctx, parent.id, 'emailVerification');
  await ctx.services.email.send('initial-signup', parent.email, {
    url: `${ctx.dashboardUrl}/verify-signup-email/${token}`,
  });
}
