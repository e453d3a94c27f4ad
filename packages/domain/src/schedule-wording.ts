import type { PlainTime, RuleSchedule } from '@keyward/contract/shared';
import { WEEKDAYS, type Weekday } from './schedule';

const SHORT_DAY_NAMES: Record<Weekday, string> = {
  sunday: 'Sun',
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
};

const WEEKDAYS_ONLY: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const WEEKEND: readonly Weekday[] = ['saturday', 'sunday'];

const pad = (n: number) => String(n).padStart(2, '0');

export function formatPlainTime(time: PlainTime): string {
  return `${pad(time.hour)}:${pad(time.minute)}`;
}

/** 'every day', 'weekdays', 'weekends' or the short names from Monday on ('Mon, Wed, Fri'). */
export function describeScheduleDays(days: RuleSchedule['days']): string {
  const selected = WEEKDAYS.filter((day) => days[day]);
  if (selected.length === 7) return 'every day';
  const isExactly = (set: readonly Weekday[]) =>
    selected.length === set.length && set.every((day) => days[day]);
  if (isExactly(WEEKDAYS_ONLY)) return 'weekdays';
  if (isExactly(WEEKEND)) return 'weekends';
  const mondayFirst = [...WEEKDAYS.slice(1), 'sunday' as const];
  return mondayFirst
    .filter((day) => days[day])
    .map((day) => SHORT_DAY_NAMES[day])
    .join(', ');
}

/** One line for a scheduled keychain: 'Active 07:00–17:00, every day'. */
export function describeSchedule(schedule: RuleSchedule): string {
  const mode = schedule.mode === 'active' ? 'Active' : 'Inactive';
  const { start, end } = schedule.window;
  return `${mode} ${formatPlainTime(start)}–${formatPlainTime(end)}, ${describeScheduleDays(schedule.days)}`;
}
