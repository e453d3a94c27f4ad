import type {
  ResolvedFilterSuspension,
  ResolvedUnlockRequest,
  WireExtraMonitoring,
  WireSuspensionDecision,
} from '@keyward/contract/device';
import type { RequestStatus } from '@keyward/contract/shared';
import { parseExtraMonitoringKey } from '@keyward/domain/extra-monitoring';
import type { Db } from '../db/database.ts';

// Decisions as the Mac sees them (server-behaviour §4.2, §4.4). The push messages of a decision and
// the check-in fallback are built by these same functions, so both paths always tell the same thing.

export interface UnlockRequestTargetRow {
  app_bundle_id: string;
  url: string | null;
  hostname: string | null;
  ip_address: string | null;
}

/** §1.4: the first of url, hostname and IP; an app-only request is named by its bundle id. */
export function unlockRequestTarget(row: UnlockRequestTargetRow): string {
  return row.url ?? row.hostname ?? row.ip_address ?? row.app_bundle_id;
}

export function resolvedUnlockRequestOf(
  row: UnlockRequestTargetRow & {
    id: string;
    status: RequestStatus;
    response_comment: string | null;
  },
): ResolvedUnlockRequest {
  return {
    id: row.id,
    status: row.status,
    target: unlockRequestTarget(row),
    ...(row.response_comment ? { comment: row.response_comment } : {}),
  };
}

export interface SuspensionDecisionRow {
  id: string;
  status: RequestStatus;
  duration: number;
  extra_monitoring: string | null;
  response_comment: string | null;
}

/** undefined while the request is still pending. */
export function resolvedSuspensionOf(
  row: SuspensionDecisionRow,
): ResolvedFilterSuspension | undefined {
  if (row.status === 'pending') return undefined;
  const extraMonitoring = row.extra_monitoring
    ? wireExtraMonitoring(row.extra_monitoring)
    : undefined;
  const decision: WireSuspensionDecision =
    row.status === 'accepted'
      ? { accepted: { duration: row.duration, ...(extraMonitoring ? { extraMonitoring } : {}) } }
      : { rejected: {} };
  return {
    id: row.id,
    decision,
    ...(row.response_comment ? { comment: row.response_comment } : {}),
  };
}

/** An extra-monitoring option key (`k`, `@N`, `@N+k`) as the app's `ExtraMonitoring`. */
export function wireExtraMonitoring(key: string): WireExtraMonitoring | undefined {
  const extra = parseExtraMonitoringKey(key);
  if (!extra) return undefined;
  const frequency = extra.screenshotsFrequency;
  if (frequency === undefined) return extra.addsKeylogging ? { addKeylogging: {} } : undefined;
  return extra.addsKeylogging
    ? { addKeyloggingAndSetScreenshotFreq: { _0: frequency } }
    : { setScreenshotFreq: { _0: frequency } };
}

/** The decision on this computer user's suspension request `requestId`, once there is one. */
export async function loadResolvedSuspension(
  db: Db,
  computerUserId: string,
  requestId: string,
): Promise<ResolvedFilterSuspension | undefined> {
  const row = await db
    .selectFrom('mac_suspend_filter_requests')
    .select(['id', 'status', 'duration', 'extra_monitoring', 'response_comment'])
    .where('id', '=', requestId)
    .where('computer_user_id', '=', computerUserId)
    .executeTakeFirst();
  return row ? resolvedSuspensionOf(row) : undefined;
}

/** This computer user's unlock requests among `ids` that are no longer pending, oldest first. */
export async function loadResolvedUnlockRequests(
  db: Db,
  computerUserId: string,
  ids: readonly string[],
): Promise<ResolvedUnlockRequest[]> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom('unlock_requests')
    .select(['id', 'status', 'app_bundle_id', 'url', 'hostname', 'ip_address', 'response_comment'])
    .where('id', 'in', wanted)
    .where('computer_user_id', '=', computerUserId)
    .where('status', '!=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(resolvedUnlockRequestOf);
}
