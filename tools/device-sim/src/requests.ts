import { isIP } from 'node:net';
import type {
  ResolvedFilterSuspension,
  ResolvedUnlockRequest,
  WireExtraMonitoring,
} from '@keyward/contract/device';
import { describeExtraMonitoringKey, extraMonitoringKey } from '@keyward/domain/extra-monitoring';
import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { UsageError } from './args.ts';
import type { AskedRequests, AskedSuspension, AskedUnlock, DeviceState } from './state.ts';

// Unlock and suspension requests on the Mac's side: what a typed target means, the decisions as
// lines for the terminal, and the record of what was asked. Pure, so it is unit-tested.

/** The bundle id a request comes from when --app is not given: Safari, like a blocked page. */
export const DEFAULT_REQUEST_APP = 'com.apple.Safari';

export interface BlockedRequest {
  bundleId: string;
  url?: string;
  hostname?: string;
  ipAddress?: string;
}

/**
 * `khanacademy.org` is a host name, `1.2.3.4` or `::1` an IP address, and anything with a scheme
 * or a path a URL (https:// is added when the scheme is missing), sent with its host name.
 */
export function blockedRequestOf(raw: string, bundleId: string): BlockedRequest {
  const text = raw.trim();
  if (text === '') throw new UsageError('unlock needs a url, host name or IP address');
  const bracketless = text.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bracketless)) return { bundleId, ipAddress: bracketless };
  if (!text.includes('/') && !text.includes('://')) {
    if (/\s/.test(text)) throw new UsageError(`"${raw}" is not a url, host name or IP address`);
    return { bundleId, hostname: text.toLowerCase() };
  }
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`"${raw}" is not a url, host name or IP address`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return { bundleId, url: withScheme };
  return isIP(host)
    ? { bundleId, url: withScheme, ipAddress: host }
    : { bundleId, url: withScheme, hostname: host };
}

/** What the server calls the request's target: the url, else host name, IP, or the app. */
export function targetOf(request: BlockedRequest): string {
  return request.url ?? request.hostname ?? request.ipAddress ?? request.bundleId;
}

const quoted = (comment: string | undefined) => (comment ? `: "${comment}"` : '');

export function formatUnlockDecision(
  decided: Pick<ResolvedUnlockRequest, 'status' | 'target' | 'comment'>,
): string {
  return `unlock request for ${decided.target} ${decided.status}${quoted(decided.comment)}`;
}

export function formatSuspensionDecision(
  decided: Pick<ResolvedFilterSuspension, 'decision' | 'comment'>,
): string {
  if ('rejected' in decided.decision) {
    return `suspension request rejected${quoted(decided.comment)}`;
  }
  const { duration, extraMonitoring } = decided.decision.accepted;
  const extra = extraMonitoring
    ? ` (extra monitoring: ${describeExtraMonitoringKey(extraMonitoringKey(extraMonitoringOf(extraMonitoring)))})`
    : '';
  return `suspension request accepted: ${suspensionDurationLabel(duration)}${extra}${quoted(decided.comment)}`;
}

/** The app's ExtraMonitoring in the domain's terms. */
function extraMonitoringOf(extra: WireExtraMonitoring) {
  if ('addKeylogging' in extra) return { addsKeylogging: true };
  if ('setScreenshotFreq' in extra) {
    return { addsKeylogging: false, screenshotsFrequency: extra.setScreenshotFreq._0 };
  }
  return {
    addsKeylogging: true,
    screenshotsFrequency: extra.addKeyloggingAndSetScreenshotFreq._0,
  };
}

export function emptyRequests(): AskedRequests {
  return { unlock: [], suspension: [] };
}

/** The ids to ask CheckIn_v2 about: unlock requests still pending, the newest undecided suspension. */
export function pendingIdsOf(requests: AskedRequests | undefined): {
  pendingUnlockRequests?: string[];
  pendingFilterSuspension?: string;
} {
  if (!requests) return {};
  const unlock = requests.unlock.filter((request) => request.status === 'pending').map((r) => r.id);
  const suspension = requests.suspension.filter((request) => !request.decision).at(-1);
  return {
    ...(unlock.length ? { pendingUnlockRequests: unlock } : {}),
    ...(suspension ? { pendingFilterSuspension: suspension.id } : {}),
  };
}

/**
 * Records a decision this Mac heard of (push or check-in). Returns the line to print, or undefined
 * when the request is not one this Mac remembers asking, or the decision was already recorded.
 */
export function recordUnlockDecision(
  state: DeviceState,
  decided: ResolvedUnlockRequest,
): string | undefined {
  const asked = state.requests?.unlock.find((request) => request.id === decided.id);
  if (!asked) return formatUnlockDecision(decided);
  if (asked.status === decided.status && asked.comment === decided.comment) return undefined;
  asked.status = decided.status;
  if (decided.comment) asked.comment = decided.comment;
  else delete asked.comment;
  return formatUnlockDecision(decided);
}

export function recordSuspensionDecision(
  state: DeviceState,
  decided: ResolvedFilterSuspension,
): string | undefined {
  const asked = state.requests?.suspension.find((request) => request.id === decided.id);
  if (!asked) return formatSuspensionDecision(decided);
  if (asked.decision) return undefined;
  asked.decision = decided.decision;
  if (decided.comment) asked.comment = decided.comment;
  return formatSuspensionDecision(decided);
}

function unlockLine(request: AskedUnlock): string {
  const app =
    request.bundleId === DEFAULT_REQUEST_APP || request.bundleId === request.target
      ? ''
      : ` (${request.bundleId})`;
  return `  ${request.askedAt}  ${request.target}${app}: ${request.status}${quoted(request.comment)}`;
}

function suspensionLine(request: AskedSuspension): string {
  const asked = `${request.askedAt}  ${suspensionDurationLabel(request.durationSeconds)}`;
  if (!request.decision) return `  ${asked}: pending`;
  return `  ${asked}: ${formatSuspensionDecision({ ...request, decision: request.decision }).replace(/^suspension request /, '')}`;
}

/** The `requests` listing. */
export function formatRequests(requests: AskedRequests | undefined): string[] {
  const asked = requests ?? emptyRequests();
  if (asked.unlock.length === 0 && asked.suspension.length === 0) {
    return ['This Mac has not asked for anything yet.'];
  }
  return [
    'Unlock requests:',
    ...(asked.unlock.length ? asked.unlock.map(unlockLine) : ['  (none)']),
    'Suspension requests:',
    ...(asked.suspension.length ? asked.suspension.map(suspensionLine) : ['  (none)']),
  ];
}
