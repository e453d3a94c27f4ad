import { describe, expect, test } from 'vitest';
import { durationLabel, hourLabel, insightsView, type ChildActivityInsights } from './insights';

const week = (overrides: Partial<ChildActivityInsights> = {}): ChildActivityInsights => ({
  childName: 'Sam',
  keyloggingEnabled: true,
  weekStart: new Date(2026, 10, 17).toISOString(),
  days: Array.from({ length: 7 }, (_, i) => ({
    date: new Date(2026, 10, 17 + i).toISOString(),
    numItems: i * 2,
    numAlerts: i === 6 ? 1 : 0,
    numFlagged: i === 6 ? 2 : 0,
  })),
  hours: Array.from({ length: 24 }, (_, hour) => (hour === 15 ? 8 : hour === 9 ? 4 : 0)),
  topApps: [{ appName: 'Messages', numLines: 12 }],
  topRequests: [{ target: 'https://games.example', numRequests: 1 }],
  numItems: 42,
  numFlagged: 2,
  numAlerts: 1,
  alertsByCategory: [{ category: 'selfHarm', numAlerts: 1 }],
  suspendedSeconds: 5400,
  falseAlerts: [{ category: 'drugs', word: 'vape', count: 3 }],
  ...overrides,
});

describe('insightsView', () => {
  test('bars scale to the highest; labels and descriptions read as a person would', () => {
    const view = insightsView(week(), 'Sam');
    expect(view.days.map((day) => day.label)).toEqual([
      'Tue',
      'Wed',
      'Thu',
      'Fri',
      'Sat',
      'Sun',
      'Mon',
    ]);
    expect(view.days.map((day) => day.height)).toEqual([0, 1 / 6, 2 / 6, 3 / 6, 4 / 6, 5 / 6, 1]);
    expect(view.days[6]).toMatchObject({
      urlDate: '2026-11-23',
      alerts: 1,
      // issue 32: the name starts with the visible label (axe label-content-name-mismatch)
      description: 'Mon, Nov 23: 12 items, 1 alert',
    });
    expect(view.hours[15]).toMatchObject({ height: 1, label: '3 pm' });
    expect(view.hours[9]).toMatchObject({ height: 0.5, description: '9 am: 4 items' });
    for (const bar of [...view.days, ...view.hours]) {
      expect(bar.description.startsWith(bar.label)).toBe(true);
    }
    expect(view.summary).toBe('42 items, 2 flagged, 1 alert this week.');
    expect(view.alerts).toEqual(['Self-harm: 1']);
    expect(view.suspended).toBe('Filter suspended for 1 h 30 min');
    expect(view.topApps).toEqual([{ name: 'Messages', count: '12 lines' }]);
    expect(view.topRequests).toEqual([{ name: 'https://games.example', count: '1 request' }]);
    expect(view.falseAlerts).toEqual(['"vape" (Drugs): unflagged 3 times']);
    expect(view.keyloggingNote).toBeNull();
  });

  test('an empty week, keylogging off', () => {
    const view = insightsView(
      week({
        days: week().days.map((day) => ({ ...day, numItems: 0, numAlerts: 0 })),
        hours: Array.from({ length: 24 }, () => 0),
        numItems: 0,
        numFlagged: 0,
        numAlerts: 0,
        alertsByCategory: [],
        suspendedSeconds: 0,
        keyloggingEnabled: false,
      }),
      'Sam',
    );
    expect(view.summary).toBe('No activity this week.');
    expect(view.days.every((day) => day.height === 0)).toBe(true);
    expect(view.suspended).toBeNull();
    expect(view.keyloggingNote).toBe(
      'Keystroke logging is off for Sam, so typed text raises no alerts.',
    );
  });

  test.each<[number, string]>([
    [0, '12 am'],
    [11, '11 am'],
    [12, '12 pm'],
    [23, '11 pm'],
  ])('hour %i is %s', (hour, label) => {
    expect(hourLabel(hour)).toBe(label);
  });

  test.each<[number, string]>([
    [30, '30 s'],
    [300, '5 min'],
    [3600, '1 h'],
    [7500, '2 h 5 min'],
  ])('%i seconds is %s', (seconds, label) => {
    expect(durationLabel(seconds)).toBe(label);
  });
});
