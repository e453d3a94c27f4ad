import type { DashboardInput } from '@keyward/contract/dashboard';
import type { PlainTimeWindow, RuleSchedule, User } from '@keyward/contract/shared';
import {
  clampTime,
  DEFAULT_ACTIVE_SCHEDULE,
  DEFAULT_DOWNTIME,
  toggleDay,
  validateScheduleWindow,
  type Weekday,
} from '@keyward/domain/schedule';
import { LIMITS } from '@keyward/contract/constants';
import {
  BUILT_IN_ALERT_CATEGORIES,
  cleanCustomAlertWords,
  customAlertWordsProblem,
  DEFAULT_ALERT_CATEGORIES,
} from '@keyward/domain/alert-categories';
import {
  blockedAppAdditionProblem,
  duplicateBlockedAppProblem,
  MAX_SCREENSHOTS_RESOLUTION,
  MIN_SCREENSHOTS_RESOLUTION,
  screenshotsResolutionProblem,
} from '@keyward/domain/child-settings';

export type SaveChildInput = DashboardInput<'SaveUser'>;

export const MAX_NAME_LENGTH = LIMITS.name;
export const MIN_SCREENSHOTS_FREQUENCY = LIMITS.minScreenshotsFrequency;

export const NEW_CHILD_DEFAULTS = {
  keyloggingEnabled: false,
  screenshotsEnabled: false,
  screenshotsResolution: 1000,
  screenshotsFrequency: 120,
  showSuspensionActivity: false,
} as const;

/** Blank or too long (the server's limit, said rather than cut silently); undefined when fine. */
export function childNameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'Name is required';
  if (name.trim().length > MAX_NAME_LENGTH) {
    return `A child's name can be at most ${MAX_NAME_LENGTH} characters.`;
  }
  return undefined;
}

/** The SaveUser body that creates a child with the spec's defaults. */
export function newChildInput(id: string, name: string): SaveChildInput {
  return {
    id,
    isNew: true,
    name: name.trim(),
    ...NEW_CHILD_DEFAULTS,
    keychains: [],
    blockedApps: [],
  };
}

export type BlockedAppDraft = { id: string; identifier: string; schedule?: RuleSchedule };
export type KeychainAssignment = { id: string; schedule?: RuleSchedule };

/** What the child page edits. Number fields stay text while the parent types. */
export type ChildDraft = {
  name: string;
  keyloggingEnabled: boolean;
  screenshotsEnabled: boolean;
  screenshotsResolution: string;
  screenshotsFrequency: string;
  showSuspensionActivity: boolean;
  downtime?: PlainTimeWindow;
  blockedApps: BlockedAppDraft[];
  /** Edited by the Keychains section (features/keychains/ChildKeychainsSection). */
  keychains: KeychainAssignment[];
  /** Issue 24: built-in alert categories turned on, in the list's order. */
  alertCategories: string[];
  /** Issue 24: the parent's own words and phrases, one per line as typed. */
  alertWords: string;
};

export type ChildEditorState = {
  childId: string;
  isLoaded: boolean;
  /** The child as last loaded or saved. */
  saved: ChildDraft;
  draft: ChildDraft;
  newBlockedApp: string;
  /** Why the app in the add box was not added (it is already blocked). */
  newBlockedAppError?: string;
  isSaving: boolean;
  saveError?: string;
};

export type ChildEditorEvent =
  | { type: 'loaded'; child: User }
  | { type: 'nameChanged'; name: string }
  | { type: 'keyloggingToggled' }
  | { type: 'screenshotsToggled' }
  | { type: 'screenshotsResolutionChanged'; value: string }
  | { type: 'screenshotsFrequencyChanged'; value: string }
  | { type: 'showSuspensionActivityToggled' }
  | { type: 'downtimeToggled' }
  | { type: 'downtimeWindowChanged'; window: PlainTimeWindow }
  | { type: 'newBlockedAppChanged'; identifier: string }
  | { type: 'blockedAppAdded'; id: string }
  | { type: 'blockedAppRemoved'; id: string }
  | { type: 'blockedAppScheduleAdded'; id: string }
  | { type: 'blockedAppScheduleRemoved'; id: string }
  | { type: 'blockedAppScheduleModeChanged'; id: string; mode: RuleSchedule['mode'] }
  | { type: 'blockedAppScheduleDayToggled'; id: string; day: Weekday }
  | { type: 'blockedAppScheduleWindowChanged'; id: string; window: PlainTimeWindow }
  | { type: 'keychainsChanged'; keychains: KeychainAssignment[] }
  | { type: 'alertCategoryToggled'; category: string }
  | { type: 'alertWordsChanged'; text: string }
  /** Cancel: back to the child as last loaded or saved. */
  | { type: 'editsDiscarded' }
  | { type: 'saveStarted' }
  | { type: 'saveSucceeded' }
  | { type: 'saveFailed'; message: string };

function draftOf(child: User): ChildDraft {
  const draft: ChildDraft = {
    name: child.name,
    keyloggingEnabled: child.keyloggingEnabled,
    screenshotsEnabled: child.screenshotsEnabled,
    screenshotsResolution: String(child.screenshotsResolution),
    screenshotsFrequency: String(child.screenshotsFrequency),
    showSuspensionActivity: child.showSuspensionActivity,
    blockedApps: (child.blockedApps ?? []).map(({ id, identifier, schedule }) =>
      schedule ? { id, identifier, schedule } : { id, identifier },
    ),
    keychains: child.keychains.map(({ id, schedule }) => (schedule ? { id, schedule } : { id })),
    alertCategories: child.alertCategories ?? [...DEFAULT_ALERT_CATEGORIES],
    alertWords: (child.alertWords ?? []).join('\n'),
  };
  if (child.downtime) draft.downtime = child.downtime;
  return draft;
}

const emptyDraft: ChildDraft = {
  name: '',
  keyloggingEnabled: false,
  screenshotsEnabled: false,
  screenshotsResolution: String(NEW_CHILD_DEFAULTS.screenshotsResolution),
  screenshotsFrequency: String(NEW_CHILD_DEFAULTS.screenshotsFrequency),
  showSuspensionActivity: false,
  blockedApps: [],
  keychains: [],
  alertCategories: [...DEFAULT_ALERT_CATEGORIES],
  alertWords: '',
};

/** The own alert words of the draft as they are saved: one per line, trimmed, each once. */
export function draftAlertWords(draft: ChildDraft): string[] {
  return cleanCustomAlertWords(draft.alertWords.split('\n'));
}

export function initialChildEditorState(childId: string): ChildEditorState {
  return {
    childId,
    isLoaded: false,
    saved: emptyDraft,
    draft: emptyDraft,
    newBlockedApp: '',
    isSaving: false,
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function hasChanges(state: ChildEditorState): boolean {
  return !sameJson(state.draft, state.saved);
}

const isWholeNumber = (text: string) => /^\d+$/.test(text.trim());

export type ChildDraftErrors = {
  name?: string;
  screenshotsResolution?: string;
  screenshotsFrequency?: string;
  /** The same app blocked twice (only possible in data saved before the rule). */
  blockedApps?: string;
  /** By blocked-app id. */
  blockedAppSchedules: Record<string, string>;
  /** By keychain id. */
  keychainSchedules: Record<string, string>;
  alertWords?: string;
};

export function draftErrors(draft: ChildDraft): ChildDraftErrors {
  const errors: ChildDraftErrors = { blockedAppSchedules: {}, keychainSchedules: {} };
  const nameProblem = childNameProblem(draft.name);
  if (nameProblem) errors.name = nameProblem;
  if (draft.screenshotsEnabled) {
    const resolutionProblem = isWholeNumber(draft.screenshotsResolution)
      ? screenshotsResolutionProblem(Number(draft.screenshotsResolution))
      : 'Enter a resolution in pixels';
    if (resolutionProblem) errors.screenshotsResolution = resolutionProblem;
    if (
      !isWholeNumber(draft.screenshotsFrequency) ||
      Number(draft.screenshotsFrequency) < MIN_SCREENSHOTS_FREQUENCY
    ) {
      errors.screenshotsFrequency = `At least ${MIN_SCREENSHOTS_FREQUENCY} seconds`;
    }
  }
  const duplicate = duplicateBlockedAppProblem(draft.blockedApps.map((app) => app.identifier));
  if (duplicate) errors.blockedApps = duplicate;
  for (const app of draft.blockedApps) {
    const error = app.schedule && validateScheduleWindow(app.schedule.window);
    if (error) errors.blockedAppSchedules[app.id] = error;
  }
  for (const keychain of draft.keychains) {
    const error = keychain.schedule && validateScheduleWindow(keychain.schedule.window);
    if (error) errors.keychainSchedules[keychain.id] = error;
  }
  const alertWordsProblem = customAlertWordsProblem(draftAlertWords(draft));
  if (alertWordsProblem) errors.alertWords = alertWordsProblem;
  return errors;
}

function hasErrors(errors: ChildDraftErrors): boolean {
  return (
    errors.name !== undefined ||
    errors.screenshotsResolution !== undefined ||
    errors.screenshotsFrequency !== undefined ||
    errors.blockedApps !== undefined ||
    errors.alertWords !== undefined ||
    Object.keys(errors.blockedAppSchedules).length > 0 ||
    Object.keys(errors.keychainSchedules).length > 0
  );
}

/** Save is disabled when nothing changed, the name is blank, a save is pending or a field is invalid. */
export function canSave(state: ChildEditorState): boolean {
  return (
    state.isLoaded && !state.isSaving && hasChanges(state) && !hasErrors(draftErrors(state.draft))
  );
}

export function canAddBlockedApp(state: ChildEditorState): boolean {
  return state.newBlockedApp.trim() !== '';
}

/**
 * The full SaveUser body. A number field the parent left invalid while screenshots are off keeps
 * its saved value (the server refuses a frequency under 10 s).
 */
export function toSaveChildInput(state: ChildEditorState): SaveChildInput {
  const { draft, saved } = state;
  const numberOr = (text: string, fallback: string) =>
    isWholeNumber(text) ? Number(text) : Number(fallback);
  const frequency = numberOr(draft.screenshotsFrequency, saved.screenshotsFrequency);
  // With screenshots off the field is hidden: keep the value within what the server accepts.
  const resolution = Math.min(
    MAX_SCREENSHOTS_RESOLUTION,
    Math.max(
      MIN_SCREENSHOTS_RESOLUTION,
      numberOr(draft.screenshotsResolution, saved.screenshotsResolution),
    ),
  );
  const input: SaveChildInput = {
    id: state.childId,
    isNew: false,
    name: draft.name.trim(),
    keyloggingEnabled: draft.keyloggingEnabled,
    screenshotsEnabled: draft.screenshotsEnabled,
    screenshotsResolution: resolution,
    screenshotsFrequency:
      frequency < MIN_SCREENSHOTS_FREQUENCY ? Number(saved.screenshotsFrequency) : frequency,
    showSuspensionActivity: draft.showSuspensionActivity,
    keychains: draft.keychains,
    blockedApps: draft.blockedApps,
  };
  if (draft.downtime) input.downtime = draft.downtime;
  // issue 24: sent only when changed (absent = unchanged), so the body is otherwise as before
  if (!sameJson(draft.alertCategories, saved.alertCategories)) {
    input.alertCategories = draft.alertCategories;
  }
  const alertWords = draftAlertWords(draft);
  if (!sameJson(alertWords, draftAlertWords(saved))) input.alertWords = alertWords;
  return input;
}

function updateBlockedApp(
  state: ChildEditorState,
  id: string,
  update: (app: BlockedAppDraft) => BlockedAppDraft,
): ChildEditorState {
  return {
    ...state,
    draft: {
      ...state.draft,
      blockedApps: state.draft.blockedApps.map((app) => (app.id === id ? update(app) : app)),
    },
  };
}

function updateSchedule(
  state: ChildEditorState,
  id: string,
  update: (schedule: RuleSchedule) => RuleSchedule,
): ChildEditorState {
  return updateBlockedApp(state, id, (app) =>
    app.schedule ? { ...app, schedule: update(app.schedule) } : app,
  );
}

function edit(state: ChildEditorState, changes: Partial<ChildDraft>): ChildEditorState {
  return { ...state, draft: { ...state.draft, ...changes } };
}

export function childEditorReducer(
  state: ChildEditorState,
  event: ChildEditorEvent,
): ChildEditorState {
  const { draft } = state;
  switch (event.type) {
    case 'loaded': {
      // A background refetch must not wipe what the parent is editing or saving.
      if (state.isLoaded && (state.isSaving || hasChanges(state))) return state;
      const loaded = draftOf(event.child);
      return { ...state, childId: event.child.id, isLoaded: true, saved: loaded, draft: loaded };
    }
    case 'nameChanged':
      return edit(state, { name: event.name });
    case 'keyloggingToggled':
      return edit(state, { keyloggingEnabled: !draft.keyloggingEnabled });
    case 'screenshotsToggled':
      return edit(state, { screenshotsEnabled: !draft.screenshotsEnabled });
    case 'screenshotsResolutionChanged':
      return edit(state, { screenshotsResolution: event.value });
    case 'screenshotsFrequencyChanged':
      return edit(state, { screenshotsFrequency: event.value });
    case 'showSuspensionActivityToggled':
      return edit(state, { showSuspensionActivity: !draft.showSuspensionActivity });
    case 'downtimeToggled': {
      if (draft.downtime) {
        const { downtime: _off, ...rest } = draft;
        return { ...state, draft: rest };
      }
      return edit(state, { downtime: DEFAULT_DOWNTIME });
    }
    case 'downtimeWindowChanged':
      // Downtime may wrap midnight, so any start and end are fine.
      if (!draft.downtime) return state;
      return edit(state, {
        downtime: { start: clampTime(event.window.start), end: clampTime(event.window.end) },
      });
    case 'newBlockedAppChanged':
      return { ...state, newBlockedApp: event.identifier, newBlockedAppError: undefined };
    case 'blockedAppAdded': {
      const identifier = state.newBlockedApp.trim();
      if (identifier === '') return state;
      const duplicate = blockedAppAdditionProblem(
        draft.blockedApps.map((app) => app.identifier),
        identifier,
      );
      if (duplicate) return { ...state, newBlockedAppError: duplicate };
      return {
        ...edit(state, { blockedApps: [...draft.blockedApps, { id: event.id, identifier }] }),
        newBlockedApp: '',
      };
    }
    case 'blockedAppRemoved':
      return edit(state, { blockedApps: draft.blockedApps.filter((app) => app.id !== event.id) });
    case 'blockedAppScheduleAdded':
      return updateBlockedApp(state, event.id, (app) => ({
        ...app,
        schedule: app.schedule ?? DEFAULT_ACTIVE_SCHEDULE,
      }));
    case 'blockedAppScheduleRemoved':
      return updateBlockedApp(state, event.id, ({ id, identifier }) => ({ id, identifier }));
    case 'blockedAppScheduleModeChanged':
      return updateSchedule(state, event.id, (schedule) => ({ ...schedule, mode: event.mode }));
    case 'blockedAppScheduleDayToggled':
      return updateSchedule(state, event.id, (schedule) => toggleDay(schedule, event.day));
    case 'blockedAppScheduleWindowChanged':
      return updateSchedule(state, event.id, (schedule) => ({
        ...schedule,
        window: { start: clampTime(event.window.start), end: clampTime(event.window.end) },
      }));
    case 'keychainsChanged':
      return edit(state, { keychains: event.keychains });
    case 'alertCategoryToggled': {
      const isOn = draft.alertCategories.includes(event.category);
      return edit(state, {
        alertCategories: BUILT_IN_ALERT_CATEGORIES.filter((category) =>
          category === event.category ? !isOn : draft.alertCategories.includes(category),
        ),
      });
    }
    case 'alertWordsChanged':
      return edit(state, { alertWords: event.text });
    case 'editsDiscarded':
      if (state.isSaving) return state;
      return {
        ...state,
        draft: state.saved,
        newBlockedApp: '',
        newBlockedAppError: undefined,
        saveError: undefined,
      };
    case 'saveStarted':
      if (!canSave(state)) return state;
      return { ...state, isSaving: true, saveError: undefined };
    case 'saveSucceeded':
      // What was sent is now the saved child.
      return { ...state, isSaving: false, saved: state.draft };
    case 'saveFailed':
      return { ...state, isSaving: false, saveError: event.message };
  }
}
