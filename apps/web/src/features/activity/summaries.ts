import type { DaySummary } from '@keyward/contract/shared';
import { dayLabel, toUrlDate } from './activity-dates';

export type DaySummaryRow = {
  urlDate: string;
  label: string;
  numReviewed: number;
  numTotal: number;
  isCompleted: boolean;
  numFlagged: number;
  /** Issue 24: typed lines with an alert. */
  numAlerts: number;
};

/** 0-100, rounded down so a day never looks complete before it is. */
export function reviewedPercent(numReviewed: number, numTotal: number): number {
  if (numTotal <= 0) return 0;
  return Math.floor((Math.min(Math.max(numReviewed, 0), numTotal) * 100) / numTotal);
}

export const reviewedText = (numReviewed: number, numTotal: number) =>
  `${numReviewed} out of ${numTotal} items reviewed`;

/** One row of the summaries list (spec: Activity pages, summary list). */
export function toDaySummaryRow(day: DaySummary, now: Date): DaySummaryRow {
  const urlDate = toUrlDate(day.date);
  // Spec: Completed when all are reviewed, so the badge and 'N out of M items reviewed' agree;
  // a day whose remaining items are kept flagged shows its Flagged badge instead (issue 20).
  const isCompleted = day.numTotal > 0 && day.numApproved >= day.numTotal;
  return {
    urlDate,
    label: dayLabel(urlDate, now),
    numReviewed: day.numApproved,
    numTotal: day.numTotal,
    isCompleted,
    numFlagged: day.numFlagged,
    numAlerts: day.numAlerts ?? 0,
  };
}

/** Newest day first, whatever order the server used. */
export function toDaySummaryRows(days: readonly DaySummary[], now: Date): DaySummaryRow[] {
  return [...days]
    .sort((a, b) => Date.parse(b.date) - Date.parse(a.date))
    .map((day) => toDaySummaryRow(day, now));
}

/** Where a day of the summaries list leads: one child's day, or the family's combined day. */
export function activityDayPath(urlDate: string, childId?: string): string {
  return childId ? `/children/${childId}/activity/${urlDate}` : `/children/activity/${urlDate}`;
}

export function activitySummariesPath(childId?: string): string {
  return childId ? `/children/${childId}/activity` : '/children/activity';
}
