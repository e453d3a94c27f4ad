import { validEmail } from '../../accounts/email-address.ts';
import { toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { RATE_LIMITS } from '../../pairql/rate-limit.ts';
import { newToken } from '../../services/tokens.ts';

// server-behaviour §3.10
export default dashboardResolver('SaveConferenceEmail', async (input, ctx) => {
  const { conferenceEmailPerIp } = RATE_LIMITS;
  await ctx.services.rateLimit.consume(
    `conference-email:ip:${ctx.ip}`,
    conferenceEmailPerIp.limit,
    conferenceEmailPerIp.windowSeconds,
  );
  const email = validEmail(input.email);
  await ctx.db
    .insertInto('conference_emails')
    .values({ id: newToken(), email, source: input.source, created_at: toDbTime(ctx.clock.now()) })
    .execute();
  return { success: true };
});
