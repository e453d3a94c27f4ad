import { describe, expect, test } from 'vitest';
import { dayLabel, dayRange, parseUrlDate, toUrlDate } from './activity-dates';
import {
  activityDayPath,
  activitySummariesPath,
  reviewedPercent,
  toDaySummaryRow,
  toDaySummaryRows,
} from './summaries';

// These run in the machine's time zone: every expectation is built from local dates.
const localMidnight = (year: number, month: number, day: number) => new Date(year, month - 1, day);
const NOW = new Date(2026, 10, 23, 15, 30);

describe('URL days', () => {
  test.each<[string, boolean]>([
    ['2026-11-23', true],
    ['2024-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-5', false],
    ['today', false],
    ['', false],
  ])('%s is valid: %s', (urlDate, isValid) => {
    expect(parseUrlDate(urlDate) !== null).toBe(isValid);
    expect(dayRange(urlDate) !== null).toBe(isValid);
  });

  test('the range runs from local 00:00:00.000 to 23:59:59.999 (wire-contract §3.3)', () => {
    expect(dayRange('2026-11-23')).toEqual({
      start: localMidnight(2026, 11, 23).toISOString(),
      end: new Date(2026, 10, 23, 23, 59, 59, 999).toISOString(),
    });
  });

  test('a summary date (local midnight) gives its local day', () => {
    expect(toUrlDate(localMidnight(2026, 1, 5).toISOString())).toBe('2026-01-05');
    expect(toUrlDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });

  test.each<[string, string]>([
    ['2026-11-23', 'Today'],
    ['2026-11-22', 'Yesterday'],
    ['2026-11-16', 'Monday, November 16'],
    ['2025-12-31', 'Wednesday, December 31, 2025'],
  ])('%s reads %s', (urlDate, label) => {
    expect(dayLabel(urlDate, NOW)).toBe(label);
  });
});

describe('summary rows', () => {
  test.each<[number, number, number]>([
    [0, 0, 0],
    [0, 10, 0],
    [5, 10, 50],
    [299, 300, 99],
    [300, 300, 100],
    [12, 10, 100],
  ])('%i of %i reviewed → %i%%', (reviewed, total, percent) => {
    expect(reviewedPercent(reviewed, total)).toBe(percent);
  });

  test('a day shows its counts, Completed when all are reviewed, and its flagged count', () => {
    const date = localMidnight(2026, 11, 22).toISOString();
    expect(toDaySummaryRow({ date, numApproved: 3, numFlagged: 1, numTotal: 3 }, NOW)).toEqual({
      urlDate: '2026-11-22',
      label: 'Yesterday',
      numReviewed: 3,
      numTotal: 3,
      isCompleted: true,
      numFlagged: 1,
      numAlerts: 0,
    });
    // issue 24: alerts are counted when the server sends them
    expect(
      toDaySummaryRow({ date, numApproved: 0, numFlagged: 2, numTotal: 3, numAlerts: 1 }, NOW)
        .numAlerts,
    ).toBe(1);
    expect(
      toDaySummaryRow({ date, numApproved: 2, numFlagged: 0, numTotal: 3 }, NOW).isCompleted,
    ).toBe(false);
    // the rest reviewed and one kept flagged: '2 out of 3 items reviewed', so not Completed
    // (issue 20: the badge and the words agree; the Flagged badge says why)
    expect(
      toDaySummaryRow({ date, numApproved: 2, numFlagged: 1, numTotal: 3 }, NOW).isCompleted,
    ).toBe(false);
    expect(
      toDaySummaryRow({ date, numApproved: 399, numFlagged: 4, numTotal: 403 }, NOW).isCompleted,
    ).toBe(false);
    expect(
      toDaySummaryRow({ date, numApproved: 1, numFlagged: 1, numTotal: 3 }, NOW).isCompleted,
    ).toBe(false);
  });

  test('days are listed newest first', () => {
    const day = (d: number) => ({
      date: localMidnight(2026, 11, d).toISOString(),
      numApproved: 0,
      numFlagged: 0,
      numTotal: 1,
    });
    expect(toDaySummaryRows([day(20), day(23), day(21)], NOW).map((row) => row.urlDate)).toEqual([
      '2026-11-23',
      '2026-11-21',
      '2026-11-20',
    ]);
  });

  test('paths: one child or the family', () => {
    expect(activityDayPath('2026-11-23', 'c1')).toBe('/children/c1/activity/2026-11-23');
    expect(activityDayPath('2026-11-23')).toBe('/children/activity/2026-11-23');
    expect(activitySummariesPath('c1')).toBe('/children/c1/activity');
    expect(activitySummariesPath()).toBe('/children/activity');
  });
});
