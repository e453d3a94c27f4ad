import type { DashboardOutput } from '@keyward/contract/dashboard';
import { alertCategoryLabel } from '@keyward/domain/alert-categories';
import { pluralise } from '@keyward/domain/wording';
import { toUrlDate } from './activity-dates';

// Issue 24: a child's week at a glance (ChildActivityInsights), as the insights card shows it.

export type ChildActivityInsights = DashboardOutput<'ChildActivityInsights'>;

export type InsightBar = {
  key: string;
  /** 'Mon', or '9 am' */
  label: string;
  value: number;
  /** Of `value`, the alerted ones (days only). */
  alerts: number;
  /** 0–1 of the highest bar of the chart. */
  height: number;
  /** Days: the day's review page. */
  urlDate?: string;
  description: string;
};

export type InsightsView = {
  days: InsightBar[];
  hours: InsightBar[];
  /** 'No activity this week.' or '120 items, 3 flagged, 1 alert.' */
  summary: string;
  alerts: string[];
  suspended: string | null;
  topApps: { name: string; count: string }[];
  topRequests: { name: string; count: string }[];
  falseAlerts: string[];
  /** Alerts work only while keystroke logging is on. */
  keyloggingNote: string | null;
};

const WEEKDAY = new Intl.DateTimeFormat('en-US', { weekday: 'short' });
/** Issue 32: the bar's name starts with its visible label ("Mon"), as WCAG 2.5.3 asks (axe
 * label-content-name-mismatch): "Mon, Nov 23: 12 items, 1 alert". */
const MONTH_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });

export function hourLabel(hour: number): string {
  if (hour === 0) return '12 am';
  if (hour === 12) return '12 pm';
  return hour < 12 ? `${hour} am` : `${hour - 12} pm`;
}

/** '2 h 5 min', '45 min', '30 s'. */
export function durationLabel(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.round(seconds / 60);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes} min`;
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

const heightOf = (value: number, max: number) => (max === 0 ? 0 : value / max);

export function insightsView(insights: ChildActivityInsights, childName: string): InsightsView {
  const maxDay = Math.max(0, ...insights.days.map((day) => day.numItems));
  const maxHour = Math.max(0, ...insights.hours);
  const days = insights.days.map((day): InsightBar => {
    const alerts = day.numAlerts > 0 ? `, ${pluralise(day.numAlerts, 'alert')}` : '';
    return {
      key: day.date,
      label: WEEKDAY.format(new Date(day.date)),
      value: day.numItems,
      alerts: day.numAlerts,
      height: heightOf(day.numItems, maxDay),
      urlDate: toUrlDate(day.date),
      description: `${WEEKDAY.format(new Date(day.date))}, ${MONTH_DAY.format(new Date(day.date))}: ${pluralise(day.numItems, 'item')}${alerts}`,
    };
  });
  const hours = insights.hours.map(
    (value, hour): InsightBar => ({
      key: String(hour),
      label: hourLabel(hour),
      value,
      alerts: 0,
      height: heightOf(value, maxHour),
      description: `${hourLabel(hour)}: ${pluralise(value, 'item')}`,
    }),
  );
  const parts = [pluralise(insights.numItems, 'item')];
  if (insights.numFlagged > 0) parts.push(`${insights.numFlagged} flagged`);
  if (insights.numAlerts > 0) parts.push(pluralise(insights.numAlerts, 'alert'));
  return {
    days,
    hours,
    summary: insights.numItems === 0 ? 'No activity this week.' : `${parts.join(', ')} this week.`,
    alerts: insights.alertsByCategory.map(
      (entry) => `${alertCategoryLabel(entry.category)}: ${entry.numAlerts}`,
    ),
    suspended:
      insights.suspendedSeconds > 0
        ? `Filter suspended for ${durationLabel(insights.suspendedSeconds)}`
        : null,
    topApps: insights.topApps.map((app) => ({
      name: app.appName,
      count: pluralise(app.numLines, 'line'),
    })),
    topRequests: insights.topRequests.map((request) => ({
      name: request.target,
      count: pluralise(request.numRequests, 'request'),
    })),
    falseAlerts: insights.falseAlerts.map(
      (entry) =>
        `"${entry.word}" (${alertCategoryLabel(entry.category)}): unflagged ${entry.count === 1 ? 'once' : `${entry.count} times`}`,
    ),
    keyloggingNote: insights.keyloggingEnabled
      ? null
      : `Keystroke logging is off for ${childName}, so typed text raises no alerts.`,
  };
}
