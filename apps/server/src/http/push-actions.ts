import type { FastifyInstance } from 'fastify';
import { runAudited } from '../audit/record.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { PUSH_DECIDE_PATH, PushDecideInput } from '@keyward/contract/push';
import { SUSPENSION_ACTIONS, spendActionToken } from '../notifications/push-actions.ts';
import type { ParentContext, Services } from '../pairql/context.ts';
import { PqlFailure } from '../pairql/errors.ts';
import { clientIp } from '../services/client-ip.ts';
import type { Clock } from '../services/clock.ts';
import { RATE_LIMITS } from '../pairql/rate-limit.ts';
import { decideMoreTime } from '../requests/more-time.ts';
import { decideSuspensionRequest } from '../requests/suspension-decision.ts';

// Issue 23: `POST /push-actions/decide {token, action}`, sent by the service worker when the parent
// taps "Allow 15 minutes" or "Deny" on a suspension-request notification. The action token
// (notifications/push-actions.ts) stands in for a session: it names the family, the person and the
// one request, and is spent by this call. The decision then takes the dashboard's own path
// (requests/suspension-decision.ts, audited as DecideFilterSuspensionRequest by that person), so the
// child's Mac hears of it at once on its push channel. Answers `{ message }` in words for the
// notification that replaces the tapped one.

const REFUSED =
  'This button has expired or was already used. Open Keyward to see the request and decide.';

export function registerPushActions(
  app: FastifyInstance,
  deps: { db: Db; config: Config; clock: Clock; services: Services },
): void {
  const { db, config, clock, services } = deps;
  app.post(PUSH_DECIDE_PATH, async (request, reply) => {
    const ip = clientIp(config, request.socket.remoteAddress, request.headers);
    try {
      const { limit, windowSeconds } = RATE_LIMITS.pushActionsPerIp;
      await services.rateLimit.consume(`pushActions:ip:${ip}`, limit, windowSeconds);
    } catch (error) {
      if (error instanceof PqlFailure) {
        return reply.code(429).send({ message: 'Too many tries. Open Keyward to decide.' });
      }
      throw error;
    }
    const parsed = PushDecideInput.safeParse(request.body);
    if (!parsed.success) {
      return reply.code(400).send({ message: 'Open Keyward to decide this request.' });
    }
    const { token, action } = parsed.data;
    const grant = await spendActionToken(db, services.tokens, clock.now(), token);
    if (!grant) {
      request.log.info('push action refused: unknown, altered, spent or expired token');
      return reply.code(401).send({ message: REFUSED });
    }
    const ctx: ParentContext = {
      db,
      config,
      clock,
      services,
      log: request.log,
      requestId: request.id,
      ip,
      dashboardUrl: config.dashboardUrls[0] as string,
      parentId: grant.parentId,
      personId: grant.personId,
      role: grant.personId === grant.parentId ? 'owner' : 'coParent',
      sessionId: '',
    };
    const chosen = SUSPENSION_ACTIONS[action];
    const input = { id: grant.requestId, decision: chosen.decision };
    // issue 34: the token may be for a request for more time ("Allow 15 minutes" of screen time)
    const moreTime = await db
      .selectFrom('more_time_requests as r')
      .innerJoin('children as c', 'c.id', 'r.child_id')
      .select('r.child_id')
      .where('r.id', '=', grant.requestId)
      .where('c.parent_id', '=', grant.parentId)
      .executeTakeFirst();
    try {
      if (moreTime) {
        const decision =
          action === 'deny'
            ? ({ case: 'rejected' } as const)
            : ({ case: 'accepted', minutes: 15 } as const);
        const moreInput = { id: grant.requestId, decision };
        await runAudited(ctx, 'DecideMoreTimeRequest', moreInput, (audited) =>
          decideMoreTime(audited, moreInput),
        );
        await services.push.toChildren([moreTime.child_id], { case: 'userUpdated' });
        return {
          message:
            action === 'deny'
              ? 'Denied. Your child has been told.'
              : 'Allowed 15 more minutes of screen time today.',
        };
      }
      await runAudited(ctx, 'DecideFilterSuspensionRequest', input, (audited) =>
        decideSuspensionRequest(audited, input),
      );
    } catch (error) {
      if (error instanceof PqlFailure) {
        return reply
          .code(error.statusCode)
          .send({ message: error.details.userMessage ?? 'Open Keyward to decide this request.' });
      }
      throw error;
    }
    return {
      message:
        action === 'deny'
          ? 'Denied. Your child has been told.'
          : 'Allowed for 15 minutes. The filter is off on that device until then.',
    };
  });
}
