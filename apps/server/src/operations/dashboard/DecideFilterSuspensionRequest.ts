import { extraMonitoringOptions } from '@keyward/domain/extra-monitoring';
import { isSuspensionRequestExpired } from '@keyward/domain/suspension-grant';
import { fromDbBool, toDbTime } from '../../db/values.ts';
import { resolvedSuspensionOf } from '../../devices/resolved-requests.ts';
import { badRequest } from '../../pairql/errors.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { MAX_SUSPENSION_SECONDS, MIN_SUSPENSION_SECONDS } from '../../requests/limits.ts';
import { ownedAnySuspendFilterRequest } from '../ownership.ts';

// server-behaviour §3.5: the parent grants (duration, optional extra monitoring) or denies a
// pending request under 2 hours old; the decision is pushed to the Mac that asked, and only to it.
// Beyond the reference, an iOS device's request is decided the same way (no extra monitoring is
// offered for iOS); the device learns the decision by polling PollFilterSuspensionDecision.
export default dashboardResolver('DecideFilterSuspensionRequest', async (input, ctx) => {
  const found = await ownedAnySuspendFilterRequest(ctx.db, ctx.parentId, input.id);
  const request = found.request;
  const now = ctx.clock.now();
  if (request.status !== 'pending') {
    throw badRequest(
      '3c9e5a71',
      `Suspension request already ${request.status}`,
      `This suspension request was already ${request.status === 'accepted' ? 'granted' : 'denied'}.`,
    );
  }
  if (isSuspensionRequestExpired(request.created_at, now)) {
    throw badRequest(
      'a81f4d06',
      'Suspension request older than 2 hours',
      'This suspension request has expired: it is more than 2 hours old. Your child can send a new one.',
    );
  }

  let changes: { duration?: number; extra_monitoring: string | null };
  if (input.decision.case === 'accepted') {
    const seconds = input.decision.durationInSeconds;
    if (seconds < MIN_SUSPENSION_SECONDS) {
      throw badRequest(
        '5d27b8e4',
        `Granted duration ${seconds} s is under 60 s`,
        'A suspension must last at least 1 minute.',
      );
    }
    if (!Number.isInteger(seconds)) {
      throw badRequest(
        'e0d4b7c1',
        `Granted duration ${seconds} s is not whole seconds`,
        'The suspension must last a whole number of seconds.',
      );
    }
    if (seconds > MAX_SUSPENSION_SECONDS) {
      throw badRequest(
        '7b0c3f92',
        `Granted duration ${seconds} s is over ${MAX_SUSPENSION_SECONDS} s`,
        'A suspension can last at most 7 days.',
      );
    }
    const extra = input.decision.extraMonitoring;
    if (extra !== undefined && extra !== '') {
      const offered =
        found.device === 'mac'
          ? extraMonitoringOptions({
              keyloggingEnabled: fromDbBool(found.request.keylogging_enabled),
              screenshotsEnabled: fromDbBool(found.request.screenshots_enabled),
              screenshotsFrequency: found.request.screenshots_frequency,
            })
          : {};
      if (!Object.hasOwn(offered, extra)) {
        throw badRequest(
          'c6e2a94b',
          `Extra monitoring option "${extra}" is not offered for this child`,
          "That extra monitoring option isn't available for this child any more. Reload the page and choose again.",
        );
      }
    }
    changes = { duration: seconds, extra_monitoring: extra || null };
  } else {
    changes = { extra_monitoring: null };
  }

  const status = input.decision.case;
  const responseComment = input.responseComment?.trim() || null;
  const set = { status, response_comment: responseComment, updated_at: toDbTime(now) };
  if (found.device === 'ios') {
    const { extra_monitoring: _none, ...iosChanges } = changes;
    const updated = await ctx.db.transaction().execute((trx) =>
      trx
        .updateTable('ios_suspend_filter_requests')
        .set({ ...iosChanges, ...set })
        .where('id', '=', request.id)
        .where('status', '=', 'pending')
        .returning('id')
        .executeTakeFirst(),
    );
    if (!updated) throw decidedConcurrently();
    return { success: true };
  }

  const updated = await ctx.db.transaction().execute((trx) =>
    trx
      .updateTable('mac_suspend_filter_requests')
      .set({ ...changes, ...set })
      .where('id', '=', request.id)
      // two parents' tabs deciding at once: only the first decision counts
      .where('status', '=', 'pending')
      .returning(['id', 'status', 'duration', 'extra_monitoring', 'response_comment'])
      .executeTakeFirst(),
  );
  if (!updated) throw decidedConcurrently();
  const decided = resolvedSuspensionOf(updated);
  if (decided) {
    await ctx.services.push.toComputerUsers([found.request.computer_user_id], {
      case: 'filterSuspensionRequestDecided_v2',
      ...decided,
    });
  }
  return { success: true };
});

const decidedConcurrently = () =>
  badRequest(
    '3c9e5a71',
    'Suspension request decided concurrently',
    'This suspension request was already decided.',
  );
