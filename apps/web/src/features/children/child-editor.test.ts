import type { RuleSchedule, User } from '@keyward/contract/shared';
import { SaveUserInput } from '@keyward/contract/shared';
import { DEFAULT_ACTIVE_SCHEDULE } from '@keyward/domain/schedule';
import { describe, expect, test } from 'vitest';
import {
  type ChildEditorEvent,
  type ChildEditorState,
  canAddBlockedApp,
  canSave,
  childEditorReducer,
  draftErrors,
  hasChanges,
  initialChildEditorState,
  newChildInput,
  toSaveChildInput,
} from './child-editor';

const CHILD_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
const KEYCHAIN_ID = '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706';
const OTHER_KEYCHAIN_ID = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
const APP_ID = 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f';
const NEW_APP_ID = 'd2e3f4a5-b6c7-4d8e-9f0a-1b2c3d4e5f60';

const weekdaysOnly: RuleSchedule = {
  mode: 'active',
  days: {
    sunday: false,
    monday: true,
    tuesday: true,
    wednesday: true,
    thursday: true,
    friday: true,
    saturday: false,
  },
  window: { start: { hour: 8, minute: 0 }, end: { hour: 15, minute: 30 } },
};

function child(overrides: Partial<User> = {}): User {
  return {
    id: CHILD_ID,
    name: 'Emma',
    keyloggingEnabled: false,
    screenshotsEnabled: true,
    screenshotsResolution: 1200,
    screenshotsFrequency: 60,
    showSuspensionActivity: false,
    keychains: [
      {
        id: KEYCHAIN_ID,
        parentId: '11111111-1111-4111-8111-111111111111',
        name: 'School',
        isPublic: false,
        numKeys: 4,
        schedule: weekdaysOnly,
      },
      {
        id: OTHER_KEYCHAIN_ID,
        parentId: '11111111-1111-4111-8111-111111111111',
        name: 'Games',
        isPublic: true,
        numKeys: 2,
      },
    ],
    devices: [],
    blockedApps: [{ id: APP_ID, identifier: 'com.valvesoftware.steam' }],
    createdAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  };
}

function run(...events: ChildEditorEvent[]): ChildEditorState {
  return events.reduce(childEditorReducer, initialChildEditorState(CHILD_ID));
}

function loaded(overrides: Partial<User> = {}, ...events: ChildEditorEvent[]): ChildEditorState {
  return run({ type: 'loaded', child: child(overrides) }, ...events);
}

describe('loading', () => {
  test('nothing can be saved before the child is loaded', () => {
    const state = run({ type: 'nameChanged', name: 'Emma' });
    expect(state.isLoaded).toBe(false);
    expect(canSave(state)).toBe(false);
  });

  test('loaded fills the form from the child, with nothing changed yet', () => {
    const state = loaded();
    expect(state.isLoaded).toBe(true);
    expect(state.draft).toEqual({
      name: 'Emma',
      keyloggingEnabled: false,
      screenshotsEnabled: true,
      screenshotsResolution: '1200',
      screenshotsFrequency: '60',
      showSuspensionActivity: false,
      blockedApps: [{ id: APP_ID, identifier: 'com.valvesoftware.steam' }],
      keychains: [{ id: KEYCHAIN_ID, schedule: weekdaysOnly }, { id: OTHER_KEYCHAIN_ID }],
      // a server without alert settings: self-harm, as new children get
      alertCategories: ['selfHarm'],
      alertWords: '',
    });
    expect(hasChanges(state)).toBe(false);
    expect(canSave(state)).toBe(false);
  });

  test('a child without blockedApps gets an empty list', () => {
    const { blockedApps: _none, ...withoutBlockedApps } = child();
    const state = run({ type: 'loaded', child: withoutBlockedApps });
    expect(state.draft.blockedApps).toEqual([]);
  });

  test('fresh data replaces an unedited form', () => {
    const state = loaded({}, { type: 'loaded', child: child({ name: 'Emma Jane' }) });
    expect(state.draft.name).toBe('Emma Jane');
    expect(hasChanges(state)).toBe(false);
  });

  test('fresh data does not wipe unsaved edits', () => {
    const state = loaded(
      {},
      { type: 'keyloggingToggled' },
      { type: 'loaded', child: child({ name: 'Emma Jane' }) },
    );
    expect(state.draft.name).toBe('Emma');
    expect(state.draft.keyloggingEnabled).toBe(true);
  });
});

describe('name', () => {
  test('a new name can be saved', () => {
    const state = loaded({}, { type: 'nameChanged', name: 'Emmy' });
    expect(state.draft.name).toBe('Emmy');
    expect(canSave(state)).toBe(true);
  });

  test.each(['', '   '])('a blank name (%j) cannot be saved', (name) => {
    const state = loaded({}, { type: 'keyloggingToggled' }, { type: 'nameChanged', name });
    expect(hasChanges(state)).toBe(true);
    expect(draftErrors(state.draft).name).toBe('Name is required');
    expect(canSave(state)).toBe(false);
  });

  test('changing the name back means nothing changed', () => {
    const state = loaded(
      {},
      { type: 'nameChanged', name: 'Em' },
      { type: 'nameChanged', name: 'Emma' },
    );
    expect(canSave(state)).toBe(false);
  });
});

describe('monitoring', () => {
  test.each([
    ['keyloggingToggled', 'keyloggingEnabled', false],
    ['screenshotsToggled', 'screenshotsEnabled', true],
    ['showSuspensionActivityToggled', 'showSuspensionActivity', false],
  ] as const)('%s flips %s', (type, field, before) => {
    const once = loaded({}, { type });
    expect(once.draft[field]).toBe(!before);
    expect(canSave(once)).toBe(true);
    const twice = childEditorReducer(once, { type });
    expect(twice.draft[field]).toBe(before);
    expect(canSave(twice)).toBe(false);
  });

  test('resolution and frequency are edited as text and sent as numbers', () => {
    const state = loaded(
      {},
      { type: 'screenshotsResolutionChanged', value: '800' },
      { type: 'screenshotsFrequencyChanged', value: '30' },
    );
    expect(canSave(state)).toBe(true);
    expect(toSaveChildInput(state)).toMatchObject({
      screenshotsResolution: 800,
      screenshotsFrequency: 30,
    });
  });

  test.each(['9', '0', ''])(
    'a frequency of %j seconds is refused while screenshots are on',
    (value) => {
      const state = loaded({}, { type: 'screenshotsFrequencyChanged', value });
      expect(draftErrors(state.draft).screenshotsFrequency).toBe('At least 10 seconds');
      expect(canSave(state)).toBe(false);
    },
  );

  test('10 seconds is the minimum frequency', () => {
    const state = loaded({}, { type: 'screenshotsFrequencyChanged', value: '10' });
    expect(draftErrors(state.draft).screenshotsFrequency).toBeUndefined();
    expect(canSave(state)).toBe(true);
  });

  test('an empty resolution is refused while screenshots are on', () => {
    const state = loaded({}, { type: 'screenshotsResolutionChanged', value: '' });
    expect(draftErrors(state.draft).screenshotsResolution).toBeDefined();
    expect(canSave(state)).toBe(false);
  });

  test.each<[string, string | undefined]>([
    ['199', 'Screenshot resolution must be between 200 and 4,000 pixels.'],
    ['200', undefined],
    ['4000', undefined],
    ['4001', 'Screenshot resolution must be between 200 and 4,000 pixels.'],
    ['0', 'Screenshot resolution must be between 200 and 4,000 pixels.'],
  ])('a resolution of %s px: %s', (value, message) => {
    const state = loaded({}, { type: 'screenshotsResolutionChanged', value });
    expect(draftErrors(state.draft).screenshotsResolution).toBe(message);
    expect(canSave(state)).toBe(message === undefined);
  });

  test('with screenshots off, a hidden out-of-range resolution is sent within the range', () => {
    const state = loaded(
      { screenshotsEnabled: false, screenshotsResolution: 100 },
      { type: 'nameChanged', name: 'Emma Jane' },
    );
    expect(canSave(state)).toBe(true);
    expect(toSaveChildInput(state).screenshotsResolution).toBe(200);
  });

  test('with screenshots off, a half-typed number keeps the saved value', () => {
    const state = loaded(
      {},
      { type: 'screenshotsFrequencyChanged', value: '5' },
      { type: 'screenshotsToggled' },
    );
    expect(canSave(state)).toBe(true);
    expect(toSaveChildInput(state)).toMatchObject({
      screenshotsEnabled: false,
      screenshotsFrequency: 60,
    });
  });
});

describe('downtime', () => {
  test('turning it on starts at 21:00 and ends at 05:00', () => {
    const state = loaded({}, { type: 'downtimeToggled' });
    expect(state.draft.downtime).toEqual({
      start: { hour: 21, minute: 0 },
      end: { hour: 5, minute: 0 },
    });
    expect(canSave(state)).toBe(true);
    expect(toSaveChildInput(state).downtime).toEqual(state.draft.downtime);
  });

  test('turning it off removes it from the body', () => {
    const window = { start: { hour: 20, minute: 30 }, end: { hour: 6, minute: 15 } };
    const state = loaded({ downtime: window }, { type: 'downtimeToggled' });
    expect(state.draft.downtime).toBeUndefined();
    expect(canSave(state)).toBe(true);
    expect(toSaveChildInput(state)).not.toHaveProperty('downtime');
  });

  test('the window may cross midnight and is clamped', () => {
    const state = loaded(
      {},
      { type: 'downtimeToggled' },
      {
        type: 'downtimeWindowChanged',
        window: { start: { hour: 22, minute: 45 }, end: { hour: 30, minute: 99 } },
      },
    );
    expect(state.draft.downtime).toEqual({
      start: { hour: 22, minute: 45 },
      end: { hour: 23, minute: 59 },
    });
    expect(canSave(state)).toBe(true);
  });

  test('changing the window of downtime that is off does nothing', () => {
    const state = loaded(
      {},
      {
        type: 'downtimeWindowChanged',
        window: { start: { hour: 1, minute: 0 }, end: { hour: 2, minute: 0 } },
      },
    );
    expect(state.draft.downtime).toBeUndefined();
    expect(hasChanges(state)).toBe(false);
  });
});

describe('cancel', () => {
  test('editsDiscarded puts back the child as loaded, with nothing left to save', () => {
    const edited = loaded(
      {},
      { type: 'nameChanged', name: 'Emmy' },
      { type: 'keyloggingToggled' },
      { type: 'keychainsChanged', keychains: [] },
      { type: 'newBlockedAppChanged', identifier: 'com.valvesoftware.steam' },
      { type: 'blockedAppAdded', id: NEW_APP_ID },
      { type: 'saveFailed', message: 'Nope' },
    );
    expect(hasChanges(edited)).toBe(true);
    const discarded = childEditorReducer(edited, { type: 'editsDiscarded' });
    expect(discarded.draft).toEqual(loaded().draft);
    expect(hasChanges(discarded)).toBe(false);
    expect(discarded).toMatchObject({ newBlockedApp: '', saveError: undefined });
    expect(discarded.newBlockedAppError).toBeUndefined();
  });

  test('a save on its way cannot be discarded', () => {
    const saving = loaded({}, { type: 'nameChanged', name: 'Emmy' }, { type: 'saveStarted' });
    expect(childEditorReducer(saving, { type: 'editsDiscarded' })).toBe(saving);
  });
});

describe('blocked apps', () => {
  test.each(['', '  '])('Add is disabled when the identifier is %j', (identifier) => {
    const state = loaded({}, { type: 'newBlockedAppChanged', identifier });
    expect(canAddBlockedApp(state)).toBe(false);
    const after = childEditorReducer(state, { type: 'blockedAppAdded', id: NEW_APP_ID });
    expect(after.draft.blockedApps).toHaveLength(1);
    expect(hasChanges(after)).toBe(false);
  });

  test('adding an app trims it, appends it and clears the input', () => {
    const state = loaded(
      {},
      { type: 'newBlockedAppChanged', identifier: '  Minecraft ' },
      { type: 'blockedAppAdded', id: NEW_APP_ID },
    );
    expect(state.draft.blockedApps).toEqual([
      { id: APP_ID, identifier: 'com.valvesoftware.steam' },
      { id: NEW_APP_ID, identifier: 'Minecraft' },
    ]);
    expect(state.newBlockedApp).toBe('');
    expect(canAddBlockedApp(state)).toBe(false);
    expect(canSave(state)).toBe(true);
  });

  test.each(['com.valvesoftware.steam', 'COM.ValveSoftware.Steam', '  com.valvesoftware.steam  '])(
    'adding %j again is refused with a message; typing clears it',
    (identifier) => {
      const state = loaded(
        {},
        { type: 'newBlockedAppChanged', identifier },
        { type: 'blockedAppAdded', id: NEW_APP_ID },
      );
      expect(state.draft.blockedApps).toEqual([
        { id: APP_ID, identifier: 'com.valvesoftware.steam' },
      ]);
      expect(state.newBlockedAppError).toBe(
        "'com.valvesoftware.steam' is already in the blocked apps.",
      );
      expect(state.newBlockedApp).toBe(identifier);
      expect(hasChanges(state)).toBe(false);
      const typing = childEditorReducer(state, {
        type: 'newBlockedAppChanged',
        identifier: 'Roblox',
      });
      expect(typing.newBlockedAppError).toBeUndefined();
    },
  );

  test('a loaded list with the same app twice cannot be saved until one goes', () => {
    const twice = loaded(
      {
        blockedApps: [
          { id: APP_ID, identifier: 'Steam' },
          { id: NEW_APP_ID, identifier: 'steam' },
        ],
      },
      { type: 'nameChanged', name: 'Emma Jane' },
    );
    expect(draftErrors(twice.draft).blockedApps).toBe("'Steam' is already in the blocked apps.");
    expect(canSave(twice)).toBe(false);
    const fixed = childEditorReducer(twice, { type: 'blockedAppRemoved', id: NEW_APP_ID });
    expect(draftErrors(fixed.draft).blockedApps).toBeUndefined();
    expect(canSave(fixed)).toBe(true);
  });

  test('typing in the add box alone is not a change to save', () => {
    const state = loaded({}, { type: 'newBlockedAppChanged', identifier: 'Roblox' });
    expect(canAddBlockedApp(state)).toBe(true);
    expect(canSave(state)).toBe(false);
  });

  test('removing an app', () => {
    const state = loaded({}, { type: 'blockedAppRemoved', id: APP_ID });
    expect(state.draft.blockedApps).toEqual([]);
    expect(toSaveChildInput(state).blockedApps).toEqual([]);
    expect(canSave(state)).toBe(true);
  });
});

describe('blocked app schedule', () => {
  const withSchedule = (...events: ChildEditorEvent[]) =>
    loaded({}, { type: 'blockedAppScheduleAdded', id: APP_ID }, ...events);
  const scheduleOf = (state: ChildEditorState) => state.draft.blockedApps[0]?.schedule;

  test('a new schedule is the default active one (every day, 07:00 to 17:00)', () => {
    const state = withSchedule();
    expect(scheduleOf(state)).toEqual(DEFAULT_ACTIVE_SCHEDULE);
    expect(canSave(state)).toBe(true);
  });

  test('mode switches between active and inactive', () => {
    const state = withSchedule({
      type: 'blockedAppScheduleModeChanged',
      id: APP_ID,
      mode: 'inactive',
    });
    expect(scheduleOf(state)?.mode).toBe('inactive');
  });

  test('days toggle, but the last selected day cannot be unchecked', () => {
    const allButSunday = (
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const
    ).map((day): ChildEditorEvent => ({ type: 'blockedAppScheduleDayToggled', id: APP_ID, day }));
    const onlySunday = withSchedule(...allButSunday);
    expect(scheduleOf(onlySunday)?.days).toEqual({
      sunday: true,
      monday: false,
      tuesday: false,
      wednesday: false,
      thursday: false,
      friday: false,
      saturday: false,
    });
    const after = childEditorReducer(onlySunday, {
      type: 'blockedAppScheduleDayToggled',
      id: APP_ID,
      day: 'sunday',
    });
    expect(scheduleOf(after)?.days.sunday).toBe(true);
  });

  test('a window that does not end after it starts blocks saving', () => {
    const state = withSchedule({
      type: 'blockedAppScheduleWindowChanged',
      id: APP_ID,
      window: { start: { hour: 18, minute: 0 }, end: { hour: 9, minute: 0 } },
    });
    expect(draftErrors(state.draft).blockedAppSchedules).toEqual({
      [APP_ID]: 'End time must be after start time',
    });
    expect(canSave(state)).toBe(false);
    const fixed = childEditorReducer(state, {
      type: 'blockedAppScheduleWindowChanged',
      id: APP_ID,
      window: { start: { hour: 18, minute: 0 }, end: { hour: 19, minute: 0 } },
    });
    expect(canSave(fixed)).toBe(true);
  });

  test('removing the schedule makes the block permanent again', () => {
    const state = withSchedule({ type: 'blockedAppScheduleRemoved', id: APP_ID });
    expect(state.draft.blockedApps[0]).toEqual({
      id: APP_ID,
      identifier: 'com.valvesoftware.steam',
    });
    expect(hasChanges(state)).toBe(false);
  });
});

describe('saving', () => {
  test('the body is the full child, with keychains as loaded', () => {
    const state = loaded({}, { type: 'nameChanged', name: '  Emmy ' }, { type: 'downtimeToggled' });
    const body = toSaveChildInput(state);
    expect(body).toEqual({
      id: CHILD_ID,
      isNew: false,
      name: 'Emmy',
      keyloggingEnabled: false,
      screenshotsEnabled: true,
      screenshotsResolution: 1200,
      screenshotsFrequency: 60,
      showSuspensionActivity: false,
      downtime: { start: { hour: 21, minute: 0 }, end: { hour: 5, minute: 0 } },
      keychains: [{ id: KEYCHAIN_ID, schedule: weekdaysOnly }, { id: OTHER_KEYCHAIN_ID }],
      blockedApps: [{ id: APP_ID, identifier: 'com.valvesoftware.steam' }],
    });
    expect(SaveUserInput.safeParse(body).success).toBe(true);
  });

  test('a pending save disables Save; success makes the draft the saved child', () => {
    const started = loaded({}, { type: 'keyloggingToggled' }, { type: 'saveStarted' });
    expect(started.isSaving).toBe(true);
    expect(canSave(started)).toBe(false);
    const succeeded = childEditorReducer(started, { type: 'saveSucceeded' });
    expect(succeeded.isSaving).toBe(false);
    expect(hasChanges(succeeded)).toBe(false);
    expect(succeeded.saved.keyloggingEnabled).toBe(true);
    expect(canSave(succeeded)).toBe(false);
  });

  test('fresh data during a save is ignored', () => {
    const state = loaded(
      {},
      { type: 'keyloggingToggled' },
      { type: 'saveStarted' },
      { type: 'loaded', child: child({ name: 'Someone else' }) },
    );
    expect(state.draft.name).toBe('Emma');
    expect(state.isSaving).toBe(true);
  });

  test('a failed save keeps the edits and shows the message', () => {
    const state = loaded(
      {},
      { type: 'keyloggingToggled' },
      { type: 'saveStarted' },
      { type: 'saveFailed', message: 'Nope' },
    );
    expect(state.saveError).toBe('Nope');
    expect(state.draft.keyloggingEnabled).toBe(true);
    expect(canSave(state)).toBe(true);
    expect(childEditorReducer(state, { type: 'saveStarted' }).saveError).toBeUndefined();
  });

  test('saveStarted is ignored when nothing can be saved', () => {
    const state = loaded({}, { type: 'saveStarted' });
    expect(state.isSaving).toBe(false);
  });
});

test('a new child is sent with the spec defaults', () => {
  const body = newChildInput(CHILD_ID, ' Leo ');
  expect(body).toEqual({
    id: CHILD_ID,
    isNew: true,
    name: 'Leo',
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 120,
    showSuspensionActivity: false,
    keychains: [],
    blockedApps: [],
  });
  expect(SaveUserInput.safeParse(body).success).toBe(true);
});

describe('alerts (issue 24)', () => {
  test('categories toggle in the list order; words are one per line; only changes are sent', () => {
    const state = loaded(
      { alertCategories: ['selfHarm'], alertWords: ['Jordan'] },
      { type: 'alertCategoryToggled', category: 'drugs' },
      { type: 'alertCategoryToggled', category: 'bullying' },
      { type: 'alertCategoryToggled', category: 'selfHarm' },
    );
    expect(state.draft.alertCategories).toEqual(['bullying', 'drugs']);
    expect(canSave(state)).toBe(true);
    const body = toSaveChildInput(state);
    expect(body.alertCategories).toEqual(['bullying', 'drugs']);
    expect('alertWords' in body).toBe(false);
    expect(SaveUserInput.safeParse(body).success).toBe(true);

    const words = childEditorReducer(state, {
      type: 'alertWordsChanged',
      text: 'Jordan\n  secret club \n\njordan',
    });
    expect(toSaveChildInput(words).alertWords).toEqual(['Jordan', 'secret club']);
  });

  test('an unchanged child sends no alert fields', () => {
    const body = toSaveChildInput(loaded({}, { type: 'nameChanged', name: 'Em' }));
    expect('alertCategories' in body || 'alertWords' in body).toBe(false);
  });

  test('a word over 100 characters is an error and blocks Save', () => {
    const state = loaded({}, { type: 'alertWordsChanged', text: 'x'.repeat(101) });
    expect(draftErrors(state.draft).alertWords).toMatch(/100 characters/);
    expect(canSave(state)).toBe(false);
  });
});
