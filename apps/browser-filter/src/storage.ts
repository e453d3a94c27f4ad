import type {
  BrowserCheckInOutput,
  BrowserMoreTimeRequest,
  BrowserSecurityEvent,
  BrowserSuspensionRequest,
  BrowserUnlockRequest,
} from '@keyward/contract/browser';
import type { FilterMode } from '@keyward/domain/browser-rules';

// What the extension keeps in chrome.storage.local (it outlives the service worker and restarts:
// the last check-in stays in force while the server is unreachable) and chrome.storage.session.

export interface Connection {
  serverUrl: string;
  token: string;
  deviceId: string;
  childId: string;
  childName: string;
  uninstallUrl: string;
}

export interface TypedLine {
  site: string;
  line: string;
  typedAt: string;
  filterSuspended: boolean;
}

/** What the pages show: written by the service worker each time it applies the rules. */
export interface FilterStatus {
  mode: FilterMode;
  childName?: string;
  suspensionEndsAt?: string;
  /** issue 34: a pause's end (absent with mode 'paused': until the parent resumes) */
  pausedUntil?: string;
  /** issue 34: today's allowance as the Time's up page shows it */
  screenTime?: BrowserCheckInOutput['screenTime'];
  keysInForce: number;
  appliedAt: string;
}

export interface LocalState {
  connection?: Connection;
  checkIn?: BrowserCheckInOutput;
  checkedInAt?: string;
  /** server time minus local time at the last check-in; the rules use the server's clock */
  clockSkewMs?: number;
  clockReported?: boolean;
  incognitoReported?: boolean;
  /** a suspension whose end was already reported */
  suspensionEndReported?: string;
  pendingEvents?: { event: BrowserSecurityEvent; detail?: string }[];
  typedLines?: TypedLine[];
  /** whether the content script records typed lines now */
  keylogging?: boolean;
  status?: FilterStatus;
  /** this browser's unlock requests, by the URL asked for */
  unlockRequestIds?: Record<string, string[]>;
  unlockDecisions?: Record<string, BrowserUnlockRequest>;
  suspensionRequest?: BrowserSuspensionRequest;
  /** issue 34: counted minutes not sent yet (minute → site) */
  usedMinutes?: Record<string, string>;
  /** issue 34: the last minute counted (sent or not), so a sent minute is not counted again */
  lastCountedMinute?: string;
  /** issue 34: the day and allowance the 5-minute warning was shown for */
  warnedFor?: string;
  /** issue 34: the Time's up page's request for more time */
  moreTimeRequest?: BrowserMoreTimeRequest;
}

export interface SessionState {
  /** sub-resources blocked per tab (as webRequest reported them) */
  blockedParts?: Record<string, string[]>;
  channelDownSince?: number;
  offlineReportedFor?: number;
}

export async function readLocal<K extends keyof LocalState>(
  ...keys: K[]
): Promise<Pick<LocalState, K>> {
  return (await chrome.storage.local.get(keys)) as Pick<LocalState, K>;
}

export function writeLocal(values: Partial<LocalState>): Promise<void> {
  return chrome.storage.local.set(values);
}

export async function readSession<K extends keyof SessionState>(
  ...keys: K[]
): Promise<Pick<SessionState, K>> {
  return (await chrome.storage.session.get(keys)) as Pick<SessionState, K>;
}

export function writeSession(values: Partial<SessionState>): Promise<void> {
  return chrome.storage.session.set(values);
}

/** Messages the pages and the content script send to the service worker. */
export type ExtensionMessage =
  | { type: 'connected' }
  | { type: 'checkInNow' }
  | { type: 'typedLine'; line: string; typedAt: string }
  | { type: 'blockedParts'; tabId?: number };

/** Issue 34: what the service worker tells a tab's content script. */
export type TabMessage = { type: 'screenTimeWarning'; text: string };
