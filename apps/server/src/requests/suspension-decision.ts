import type {
  DecideFilterSuspensionRequestInput,
  SuspendFilterRequest,
} from '@keyward/contract/shared';
import { isSuspensionRequestExpired } from '@keyward/domain/suspension-grant';
import { toDbTime } from '../db/values.ts';
import { deviceKindSource, type OwnedSuspensionRequest } from '../devices/family-devices.ts';
import { loadResolvedSuspension } from '../devices/resolved-requests.ts';
import { ownedSuspensionRequest } from '../operations/ownership.ts';
import type { ParentContext } from '../pairql/context.ts';
import { badRequest } from '../pairql/errors.ts';
import { suspensionRequestAlreadyDecided } from './decisions.ts';
import { MAX_SUSPENSION_SECONDS, MIN_SUSPENSION_SECONDS } from './limits.ts';

// server-behaviour §3.5 and issue 20: one path for a suspension request of any kind of device. The
// parent grants (duration, and extra monitoring where the device offers it) or denies a pending
// request under 2 hours old. A Mac gets the decision pushed on its channel (and at its next
// check-in); an iOS device learns it by polling PollFilterSuspensionDecision.

/** The request as the suspension page reads it; `deviceId` is the computer user of a Mac. */
export function suspendFilterRequestOutput(found: OwnedSuspensionRequest): SuspendFilterRequest {
  const output: SuspendFilterRequest = {
    id: found.id,
    deviceId: found.deviceId,
    status: found.status,
    userName: found.childName,
    requestedDurationInSeconds: found.requestedDuration,
    extraMonitoringOptions: found.extraMonitoringOptions,
    createdAt: found.createdAt,
  };
  if (found.status === 'accepted') output.grantedDurationInSeconds = found.duration;
  if (found.requestComment !== null) output.requestComment = found.requestComment;
  if (found.responseComment !== null) output.responseComment = found.responseComment;
  return output;
}

export async function decideSuspensionRequest(
  ctx: ParentContext,
  input: DecideFilterSuspensionRequestInput,
): Promise<void> {
  const found = await ownedSuspensionRequest(ctx.db, ctx.parentId, input.id);
  const now = ctx.clock.now();
  if (found.status !== 'pending') throw suspensionRequestAlreadyDecided(found.status);
  if (isSuspensionRequestExpired(found.createdAt, now)) {
    throw badRequest(
      'a81f4d06',
      'Suspension request older than 2 hours',
      'This suspension request has expired: it is more than 2 hours old. Your child can send a new one.',
    );
  }

  const responseComment = input.responseComment?.trim() || null;
  const updatedAt = toDbTime(now);
  const source = deviceKindSource(found.kind);
  const change =
    input.decision.case === 'accepted'
      ? {
          status: 'accepted' as const,
          duration: grantedSeconds(input.decision.durationInSeconds),
          extraMonitoring: offeredExtraMonitoring(found, input.decision.extraMonitoring),
          responseComment,
          updatedAt,
        }
      : { status: 'rejected' as const, extraMonitoring: null, responseComment, updatedAt };
  await ctx.db.transaction().execute(async (trx) => {
    if (await source.recordSuspensionDecision(trx, found.id, change)) return;
    // another decision was stored first (issue 19, requests/decisions.ts): thrown inside the
    // transaction, so nothing of this call is written, not even its audit entry
    const current = await ownedSuspensionRequest(trx, ctx.parentId, found.id);
    throw suspensionRequestAlreadyDecided(current.status);
  });

  // after the commit, so a device never hears of a decision that was rolled back
  if (found.kind === 'mac') {
    const decided = await loadResolvedSuspension(ctx.db, found.deviceId, found.id);
    if (decided) {
      await ctx.services.push.toComputerUsers([found.deviceId], {
        case: 'filterSuspensionRequestDecided_v2',
        ...decided,
      });
    }
  }
}

function grantedSeconds(seconds: number): number {
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
  return seconds;
}

function offeredExtraMonitoring(
  found: OwnedSuspensionRequest,
  extra: string | undefined,
): string | null {
  if (extra === undefined || extra === '') return null;
  if (!Object.hasOwn(found.extraMonitoringOptions, extra)) {
    throw badRequest(
      'c6e2a94b',
      `Extra monitoring option "${extra}" is not offered for this child`,
      "That extra monitoring option isn't available for this child any more. Reload the page and choose again.",
    );
  }
  return extra;
}
