import type { ScreenTime } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  allowanceOf,
  grantChoices,
  initialScreenTimeEditor,
  isScreenTimeChanged,
  pauseWords,
  screenTimeEditorReducer,
  siteBars,
  todayWords,
  weekBars,
} from './screen-time';

const settings: ScreenTime = {
  allowance: {
    monday: 120,
    tuesday: 120,
    wednesday: 120,
    thursday: 120,
    friday: 90,
    saturday: null,
    sunday: null,
  },
  exemptKeychainIds: [],
  timeZone: 'Europe/Paris',
};

describe('the allowance editor', () => {
  test('a day turned into a limit, hours and minutes typed, then saved', () => {
    let state = initialScreenTimeEditor(settings);
    expect(state.draft.days.friday).toEqual({ isLimited: true, hours: '1', minutes: '30' });
    expect(isScreenTimeChanged(state)).toBe(false);
    state = screenTimeEditorReducer(state, { type: 'limitToggled', day: 'saturday' });
    state = screenTimeEditorReducer(state, { type: 'hoursChanged', day: 'saturday', value: '3' });
    state = screenTimeEditorReducer(state, {
      type: 'minutesChanged',
      day: 'saturday',
      value: '15',
    });
    expect(isScreenTimeChanged(state)).toBe(true);
    expect(allowanceOf(state.draft)).toEqual({
      allowance: { ...settings.allowance, saturday: 195 },
    });
    state = screenTimeEditorReducer(state, { type: 'saveStarted' });
    state = screenTimeEditorReducer(state, { type: 'saved' });
    expect(isScreenTimeChanged(state)).toBe(false);
  });

  test('Monday copied to every school day; a keychain marked and unmarked', () => {
    let state = initialScreenTimeEditor(settings);
    state = screenTimeEditorReducer(state, { type: 'minutesChanged', day: 'monday', value: '45' });
    state = screenTimeEditorReducer(state, { type: 'copiedToSchoolDays', from: 'monday' });
    const result = allowanceOf(state.draft);
    expect(result.problem).toBeUndefined();
    if (result.problem === undefined) expect(result.allowance.friday).toBe(165);
    state = screenTimeEditorReducer(state, { type: 'exemptToggled', keychainId: 'b' });
    state = screenTimeEditorReducer(state, { type: 'exemptToggled', keychainId: 'a' });
    expect(state.draft.exemptKeychainIds).toEqual(['a', 'b']);
    state = screenTimeEditorReducer(state, { type: 'exemptToggled', keychainId: 'b' });
    expect(state.draft.exemptKeychainIds).toEqual(['a']);
  });

  test.each([
    ['minutes', '75', 'Minutes on Monday go up to 59.'],
    ['hours', '25', 'The time allowed on Monday can be at most 24 hours.'],
    ['hours', '1.5', 'The time allowed on Monday must be whole hours and minutes.'],
    ['hours', '-1', 'The time allowed on Monday must be whole hours and minutes.'],
  ] as const)('%s %s: %s', (field, value, problem) => {
    const state = screenTimeEditorReducer(initialScreenTimeEditor(settings), {
      type: field === 'hours' ? 'hoursChanged' : 'minutesChanged',
      day: 'monday',
      value,
    });
    expect(allowanceOf(state.draft).problem).toBe(problem);
  });

  test('a failed save keeps the draft and says why', () => {
    let state = initialScreenTimeEditor(settings);
    state = screenTimeEditorReducer(state, { type: 'limitToggled', day: 'sunday' });
    state = screenTimeEditorReducer(state, { type: 'saveStarted' });
    state = screenTimeEditorReducer(state, { type: 'saveFailed', message: 'No connection.' });
    expect([state.isSaving, state.saveError, isScreenTimeChanged(state)]).toEqual([
      false,
      'No connection.',
      true,
    ]);
  });
});

describe('the week and today', () => {
  const day = (weekday: string, used: number, allowance: number | null, granted = 0) => ({
    date: '2026-12-01',
    weekday: weekday as 'monday',
    usedMinutes: used,
    allowanceMinutes: allowance,
    grantedMinutes: granted,
  });

  test('bars on one scale, over the allowance marked, today last', () => {
    const bars = weekBars([
      day('sunday', 30, null),
      day('monday', 240, 120),
      day('tuesday', 60, 120, 30),
    ]);
    expect(bars.map((bar) => bar.label)).toEqual(['Sun', 'Mon', 'Today']);
    expect(bars.map((bar) => bar.usedPercent)).toEqual([13, 100, 25]);
    expect(bars.map((bar) => bar.allowedPercent)).toEqual([null, 50, 63]);
    expect(bars.map((bar) => bar.isOver)).toEqual([false, true, false]);
    expect(bars[2]?.description).toBe('Today: 1 hour of 2 hours 30 minutes');
    expect(bars[0]?.description).toBe('Sunday: 30 minutes, no limit');
  });

  test.each([
    [
      { ...day('monday', 95, 120, 0), remainingMinutes: 25, resetsAt: '' },
      '1 hour 35 minutes today of 2 hours: 25 minutes left.',
    ],
    [
      { ...day('monday', 135, 120, 15), remainingMinutes: 0, resetsAt: '' },
      "2 hours 15 minutes today of 2 hours 15 minutes (with 15 minutes more you gave). Time's up.",
    ],
    [
      { ...day('monday', 40, null), remainingMinutes: null, resetsAt: '' },
      '40 minutes today. No limit today.',
    ],
  ])('%j', (today, words) => {
    expect(todayWords(today)).toBe(words);
  });

  test('top sites as bars of the first', () => {
    expect(
      siteBars([
        { site: 'a', minutes: 60 },
        { site: 'b', minutes: 15 },
      ]),
    ).toEqual([
      { site: 'a', minutes: 60, words: '1 hour', percent: 100 },
      { site: 'b', minutes: 15, words: '15 minutes', percent: 25 },
    ]);
  });

  test('pause words and grant choices', () => {
    expect(pauseWords(undefined, String)).toBe('Internet on.');
    expect(pauseWords({}, String)).toBe('Paused until you resume.');
    expect(pauseWords({ until: 'X' }, (iso) => `<${iso}>`)).toBe('Paused until <X>.');
    expect(grantChoices({ requestedMinutes: 30 })).toEqual([30, 15, 60]);
  });
});
