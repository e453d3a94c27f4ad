import type {
  MoreTimeInboxItem,
  ScreenTime,
  ScreenTimeDay,
  ScreenTimeUsage,
  WeeklyAllowance,
} from '@keyward/contract/shared';
import {
  allowanceProblem,
  dayName,
  minutesInWords,
  WEEKDAYS,
  type Weekday,
} from '@keyward/domain/screen-time';

// Issue 34: the screen-time screens' logic, as pure functions and a reducer of named events: the
// allowance editor (each day a limit or none, the keychains that don't use up time), the week's
// chart, the words of today's time and of a pause.

export type DayDraft = { isLimited: boolean; hours: string; minutes: string };
export type ScreenTimeDraft = { days: Record<Weekday, DayDraft>; exemptKeychainIds: string[] };

export type ScreenTimeEditorState = {
  draft: ScreenTimeDraft;
  saved: ScreenTimeDraft;
  isSaving: boolean;
  saveError: string | undefined;
};

export type ScreenTimeEditorEvent =
  | { type: 'loaded'; settings: ScreenTime }
  | { type: 'limitToggled'; day: Weekday }
  | { type: 'hoursChanged'; day: Weekday; value: string }
  | { type: 'minutesChanged'; day: Weekday; value: string }
  | { type: 'copiedToSchoolDays'; from: Weekday }
  | { type: 'exemptToggled'; keychainId: string }
  | { type: 'saveStarted' }
  | { type: 'saved' }
  | { type: 'saveFailed'; message: string };

const SCHOOL_DAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

export function draftOf(settings: ScreenTime): ScreenTimeDraft {
  const days = {} as Record<Weekday, DayDraft>;
  for (const day of WEEKDAYS) {
    const minutes = settings.allowance[day];
    days[day] =
      minutes === null
        ? { isLimited: false, hours: '2', minutes: '0' }
        : {
            isLimited: true,
            hours: String(Math.floor(minutes / 60)),
            minutes: String(minutes % 60),
          };
  }
  return { days, exemptKeychainIds: [...settings.exemptKeychainIds].sort() };
}

export function initialScreenTimeEditor(settings: ScreenTime): ScreenTimeEditorState {
  const draft = draftOf(settings);
  return { draft, saved: draft, isSaving: false, saveError: undefined };
}

function withDay(state: ScreenTimeEditorState, day: Weekday, change: Partial<DayDraft>) {
  return {
    ...state,
    saveError: undefined,
    draft: {
      ...state.draft,
      days: { ...state.draft.days, [day]: { ...state.draft.days[day], ...change } },
    },
  };
}

export function screenTimeEditorReducer(
  state: ScreenTimeEditorState,
  event: ScreenTimeEditorEvent,
): ScreenTimeEditorState {
  switch (event.type) {
    case 'loaded':
      return initialScreenTimeEditor(event.settings);
    case 'limitToggled':
      return withDay(state, event.day, { isLimited: !state.draft.days[event.day].isLimited });
    case 'hoursChanged':
      return withDay(state, event.day, { hours: event.value });
    case 'minutesChanged':
      return withDay(state, event.day, { minutes: event.value });
    case 'copiedToSchoolDays': {
      const from = state.draft.days[event.from];
      let next = state;
      for (const day of SCHOOL_DAYS) next = withDay(next, day, { ...from });
      return next;
    }
    case 'exemptToggled': {
      const ids = new Set(state.draft.exemptKeychainIds);
      if (ids.has(event.keychainId)) ids.delete(event.keychainId);
      else ids.add(event.keychainId);
      return {
        ...state,
        saveError: undefined,
        draft: { ...state.draft, exemptKeychainIds: [...ids].sort() },
      };
    }
    case 'saveStarted':
      return { ...state, isSaving: true, saveError: undefined };
    case 'saved':
      return { ...state, isSaving: false, saved: state.draft };
    case 'saveFailed':
      return { ...state, isSaving: false, saveError: event.message };
  }
}

/** The allowance the draft stands for, or the first problem in a parent's words. */
export function allowanceOf(
  draft: ScreenTimeDraft,
): { allowance: WeeklyAllowance; problem?: undefined } | { problem: string } {
  const allowance = {} as WeeklyAllowance;
  for (const day of WEEKDAYS) {
    const entry = draft.days[day];
    if (!entry.isLimited) {
      allowance[day] = null;
      continue;
    }
    const hours = entry.hours.trim() === '' ? 0 : Number(entry.hours);
    const minutes = entry.minutes.trim() === '' ? 0 : Number(entry.minutes);
    if (!Number.isInteger(hours) || !Number.isInteger(minutes) || hours < 0 || minutes < 0) {
      return { problem: `The time allowed on ${dayName(day)} must be whole hours and minutes.` };
    }
    if (minutes > 59) return { problem: `Minutes on ${dayName(day)} go up to 59.` };
    allowance[day] = hours * 60 + minutes;
  }
  const problem = allowanceProblem(allowance);
  return problem ? { problem } : { allowance };
}

export function isScreenTimeChanged(state: ScreenTimeEditorState): boolean {
  return JSON.stringify(state.draft) !== JSON.stringify(state.saved);
}

const SHORT_DAYS: Record<Weekday, string> = {
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
  sunday: 'Sun',
};

export type WeekBar = {
  label: string;
  /** what a screen reader says */
  description: string;
  usedMinutes: number;
  /** allowance with grants; null: no limit */
  allowedMinutes: number | null;
  isOver: boolean;
  /** bar and allowance mark as % of the chart's height */
  usedPercent: number;
  allowedPercent: number | null;
  isToday: boolean;
};

/** The week as bars on one scale: the tallest of time used and allowances fills the chart. */
export function weekBars(week: readonly ScreenTimeDay[]): WeekBar[] {
  const allowedOf = (day: ScreenTimeDay) =>
    day.allowanceMinutes === null ? null : day.allowanceMinutes + day.grantedMinutes;
  const top = Math.max(60, ...week.map((day) => Math.max(day.usedMinutes, allowedOf(day) ?? 0)));
  return week.map((day, index) => {
    const allowed = allowedOf(day);
    const isToday = index === week.length - 1;
    return {
      label: isToday ? 'Today' : SHORT_DAYS[day.weekday],
      description: `${isToday ? 'Today' : dayName(day.weekday)}: ${minutesInWords(day.usedMinutes)}${
        allowed === null ? ', no limit' : ` of ${minutesInWords(allowed)}`
      }`,
      usedMinutes: day.usedMinutes,
      allowedMinutes: allowed,
      isOver: allowed !== null && day.usedMinutes >= allowed,
      usedPercent: Math.round((day.usedMinutes / top) * 100),
      allowedPercent: allowed === null ? null : Math.round((allowed / top) * 100),
      isToday,
    };
  });
}

/** "1 hour 35 minutes today of 2 hours: 25 minutes left" and the like. */
export function todayWords(today: ScreenTimeUsage['today']): string {
  const used = minutesInWords(today.usedMinutes);
  if (today.allowanceMinutes === null) return `${used} today. No limit today.`;
  const allowed = minutesInWords(today.allowanceMinutes + today.grantedMinutes);
  const granted =
    today.grantedMinutes > 0 ? ` (with ${minutesInWords(today.grantedMinutes)} more you gave)` : '';
  if (today.remainingMinutes === 0) return `${used} today of ${allowed}${granted}. Time's up.`;
  return `${used} today of ${allowed}${granted}: ${minutesInWords(today.remainingMinutes ?? 0)} left.`;
}

/** Top sites as bars on the scale of the first. */
export function siteBars(sites: ScreenTimeUsage['topSites']) {
  const top = Math.max(1, ...sites.map((site) => site.minutes));
  return sites.map((site) => ({
    ...site,
    words: minutesInWords(site.minutes),
    percent: Math.max(2, Math.round((site.minutes / top) * 100)),
  }));
}

/** "Paused until 16:05" / "Paused until you resume". */
export function pauseWords(pause: ScreenTime['pause'], timeOf: (iso: string) => string): string {
  if (!pause) return 'Internet on.';
  return pause.until ? `Paused until ${timeOf(pause.until)}.` : 'Paused until you resume.';
}

/** The pause buttons, as the issue names them. */
export const PAUSE_BUTTONS = [
  { minutes: 15, label: 'Pause for 15 minutes' },
  { minutes: 60, label: 'Pause for an hour' },
  { minutes: null, label: 'Pause until I resume' },
] as const;

/** The grant buttons of a request: what the child asked first. */
export function grantChoices(request: Pick<MoreTimeInboxItem, 'requestedMinutes'>): number[] {
  const choices = [15, 30, 60];
  return [request.requestedMinutes, ...choices.filter((m) => m !== request.requestedMinutes)];
}

/** The device kinds that count screen time (issue 34: only Keyward for Chrome). */
export function countsScreenTime(kind: string): boolean {
  return kind === 'browser';
}

export const CANNOT_COUNT_WORDS: Record<string, string> = {
  mac: "Screen time isn't counted on this Mac, and Pause internet doesn't reach it: only Keyward for Chrome counts time. Downtime applies here.",
  ios: "Screen time isn't counted on this iPhone or iPad, and Pause internet doesn't reach it: only Keyward for Chrome counts time.",
  dns: "Screen time isn't counted on a device filtered by Keyward DNS, but Pause internet and downtime block it.",
};
