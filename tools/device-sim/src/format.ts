import type {
  CheckInOutput,
  FilterState,
  LatestRelease,
  ServerMessage,
  UserData,
} from '@keyward/contract/device';
import type {
  BlockedApp,
  PlainTime,
  PlainTimeWindow,
  RuleSchedule,
} from '@keyward/contract/shared';
import { describeKey } from '@keyward/domain/keys';
import { WEEKDAYS, type Weekday } from '@keyward/domain/schedule';

// Pure text for the terminal. Every function returns lines; the commands print them.

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

export function formatTime(time: PlainTime): string {
  return `${pad(time.hour)}:${pad(time.minute)}`;
}

export function formatWindow(window: PlainTimeWindow): string {
  return `${formatTime(window.start)}-${formatTime(window.end)}`;
}

const SHORT_DAY: Record<Weekday, string> = {
  sunday: 'Sun',
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
};

const WEEKDAYS_ONLY: Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

export function formatDays(days: RuleSchedule['days']): string {
  const selected = WEEKDAYS.filter((day) => days[day]);
  if (selected.length === 7) return 'every day';
  if (selected.length === 5 && WEEKDAYS_ONLY.every((day) => days[day])) return 'weekdays';
  if (selected.length === 2 && days.saturday && days.sunday) return 'weekends';
  if (selected.length === 0) return 'no days';
  // Monday first, the way a person reads a week.
  const mondayFirst = [...WEEKDAYS.slice(1), WEEKDAYS[0]!];
  return mondayFirst
    .filter((day) => days[day])
    .map((day) => SHORT_DAY[day])
    .join(', ');
}

/** "only weekdays 07:00-17:00" (mode active) or "except every day 21:00-05:00" (mode inactive). */
export function formatSchedule(schedule: RuleSchedule): string {
  const when = `${formatDays(schedule.days)} ${formatWindow(schedule.window)}`;
  return schedule.mode === 'active' ? `only ${when}` : `except ${when}`;
}

export function formatBlockedApp(app: Pick<BlockedApp, 'identifier' | 'schedule'>): string {
  return app.schedule
    ? `${app.identifier} (${formatSchedule(app.schedule)})`
    : `${app.identifier} (always)`;
}

function onOff(value: boolean): string {
  return value ? 'on' : 'off';
}

/** The child's settings of the app's UserData (without the Mac's own token, id and time). */
export type ChildSettings = Omit<UserData, 'token' | 'deviceId' | 'connectedAt'>;

export function formatUserData(userData: ChildSettings): string[] {
  const screenshots = userData.screenshotsEnabled
    ? `on, every ${userData.screenshotFrequency} s, ${userData.screenshotSize} px wide`
    : 'off';
  const blocked = userData.blockedApps?.length
    ? userData.blockedApps.map((app) => `  - ${formatBlockedApp(app)}`)
    : ['  (none)'];
  return [
    `Child: ${userData.name} (${userData.id})`,
    `Screenshots: ${screenshots}`,
    `Keystroke monitoring: ${onOff(userData.keyloggingEnabled)}`,
    `Downtime: ${userData.downtime ? formatWindow(userData.downtime) : 'none'}`,
    'Blocked apps:',
    ...blocked,
  ];
}

/** The server names the Mac's own version, without a pace, when it is up to date. */
export function formatRelease(release: LatestRelease): string {
  if (!release.pace) {
    return `Latest release: ${release.semver} (this Mac is up to date)`;
  }
  return `Latest release: ${release.semver}, nag from ${release.pace.nagOn}, required from ${release.pace.requireOn}`;
}

export function formatCheckIn(checkIn: CheckInOutput): string[] {
  const keychains = checkIn.keychains.length
    ? checkIn.keychains.flatMap((keychain) => [
        `  - keychain ${keychain.id} (${keychain.schedule ? formatSchedule(keychain.schedule) : 'always'}), ${plural(keychain.keys.length, 'key')}`,
        ...keychain.keys.map((key) => `      ${describeKey(key.key)}`),
      ])
    : ['  (none)'];
  const lines = [
    `Account status: ${checkIn.adminAccountStatus}`,
    ...formatUserData(checkIn.userData),
    'Keychains:',
    ...keychains,
    formatRelease(checkIn.latestRelease),
    `Release channel: ${checkIn.updateReleaseChannel}`,
  ];
  if (checkIn.resolvedFilterSuspension) {
    lines.push(`Filter suspension decided: ${JSON.stringify(checkIn.resolvedFilterSuspension)}`);
  }
  for (const request of checkIn.resolvedUnlockRequests ?? []) {
    lines.push(`Unlock request ${request.id} ${request.status}: ${request.target}`);
  }
  lines.push(`Server time: ${new Date(checkIn.trustedTime * 1000).toISOString()}`);
  return lines;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function formatFilterState(state: FilterState): string {
  switch (state.case) {
    case 'on':
      return 'filter on';
    case 'off':
      return 'filter off';
    case 'suspended':
      return `filter suspended until ${state.resuming}`;
    case 'downtime':
      return `downtime until ${state.ending}`;
    case 'downtimePaused':
      return `downtime paused until ${state.resuming}`;
  }
}

/** One line per push message, as it came. */
export function formatPush(message: ServerMessage | unknown): string {
  return `push: ${JSON.stringify(message)}`;
}

// ---------------------------------------------------------------------------
// What changed between two check-ins

/** A flat, comparable view of the settings the Mac applies. */
export type Settings = Record<string, string>;

export function settingsOf(
  userData: ChildSettings,
  checkIn?: Pick<CheckInOutput, 'keychains' | 'adminAccountStatus'>,
): Settings {
  const settings: Settings = {
    name: userData.name,
    keyloggingEnabled: String(userData.keyloggingEnabled),
    screenshotsEnabled: String(userData.screenshotsEnabled),
    screenshotFrequency: String(userData.screenshotFrequency),
    screenshotSize: String(userData.screenshotSize),
    downtime: userData.downtime ? formatWindow(userData.downtime) : 'none',
    blockedApps: userData.blockedApps?.length
      ? userData.blockedApps.map(formatBlockedApp).join(', ')
      : 'none',
  };
  if (checkIn) {
    settings.adminAccountStatus = checkIn.adminAccountStatus;
    for (const keychain of checkIn.keychains) {
      const schedule = keychain.schedule ? formatSchedule(keychain.schedule) : 'always';
      const keys = keychain.keys.map((key) => describeKey(key.key)).sort();
      settings[`keychain ${keychain.id}`] =
        `${schedule}; ${plural(keys.length, 'key')}${keys.length ? `: ${keys.join(' | ')}` : ''}`;
    }
  }
  return settings;
}

const ABSENT = '(none)';

/** "screenshotsEnabled: false -> true", in a stable order; empty when nothing changed. */
export function diffSettings(before: Settings | undefined, after: Settings): string[] {
  if (!before) return [];
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const lines: string[] = [];
  for (const name of names) {
    // A connect carries no account status; its first check-in is not a change.
    if (name === 'adminAccountStatus' && before[name] === undefined) continue;
    const was = before[name] ?? ABSENT;
    const now = after[name] ?? ABSENT;
    if (was !== now) lines.push(`${name}: ${was} -> ${now}`);
  }
  return lines;
}
