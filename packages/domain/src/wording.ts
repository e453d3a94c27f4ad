/** '3 days', '1 day', '2 children' (pass the plural when it is not singular + 's'). */
export function pluralise(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

export function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 17) return 'Good afternoon';
  return 'Good evening';
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const UNITS: ReadonlyArray<readonly [number, string]> = [
  [YEAR, 'year'],
  [MONTH, 'month'],
  [DAY, 'day'],
  [HOUR, 'hour'],
  [MINUTE, 'minute'],
  [SECOND, 'second'],
];

/** '5 minutes ago', '1 year ago', 'in 2 days'; under a second is 'just now'. */
export function timeAgo(date: Date | string, now: Date): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const diff = now.getTime() - then.getTime();
  const size = Math.abs(diff);
  for (const [unitMs, unit] of UNITS) {
    if (size >= unitMs) {
      const amount = pluralise(Math.floor(size / unitMs), unit);
      return diff >= 0 ? `${amount} ago` : `in ${amount}`;
    }
  }
  return 'just now';
}
