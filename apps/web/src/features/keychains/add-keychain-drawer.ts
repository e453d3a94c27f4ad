import type { KeychainSummary, PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import {
  clampTime,
  DEFAULT_ACTIVE_SCHEDULE,
  toggleDay,
  validateScheduleWindow,
  type Weekday,
} from '@keyward/domain/schedule';

// The add-keychain drawer of the child page (spec §2): search, My/Public toggle, pages of 6,
// selection with an optional schedule, and the request-a-public-keychain box.

export const KEYCHAINS_PER_PAGE = 6;

export type KeychainSource = 'own' | 'public';
export type RequestStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

export type AddKeychainDrawerState = {
  isOpen: boolean;
  search: string;
  source: KeychainSource;
  page: number;
  selectedId: string | undefined;
  schedule: RuleSchedule | undefined;
  requestDescription: string;
  requestStatus: RequestStatus;
};

export type AddKeychainDrawerEvent =
  | { type: 'opened' }
  | { type: 'closed' }
  | { type: 'escapePressed' }
  | { type: 'searchChanged'; search: string }
  | { type: 'sourceChanged'; source: KeychainSource }
  | { type: 'nextPageClicked' }
  | { type: 'previousPageClicked' }
  | { type: 'keychainSelected'; id: string }
  | { type: 'scheduleAdded' }
  | { type: 'scheduleRemoved' }
  | { type: 'scheduleModeChanged'; mode: RuleSchedule['mode'] }
  | { type: 'scheduleDayToggled'; day: Weekday }
  | { type: 'scheduleWindowChanged'; window: PlainTimeWindow }
  | { type: 'requestDescriptionChanged'; description: string }
  | { type: 'requestStarted' }
  | { type: 'requestSucceeded' }
  | { type: 'requestFailed' }
  | { type: 'added' };

export function initialAddKeychainDrawerState(): AddKeychainDrawerState {
  return {
    isOpen: false,
    search: '',
    source: 'own',
    page: 0,
    selectedId: undefined,
    schedule: undefined,
    requestDescription: '',
    requestStatus: 'idle',
  };
}

export type SelectableKeychains = { own: KeychainSummary[]; public: KeychainSummary[] };

export type DrawerEmptyState =
  | 'noOwnKeychains'
  | 'childHasAllOwnKeychains'
  | 'noOwnMatch'
  | 'noSelectableKeychains'
  | 'requestPublicKeychain';

export type DrawerView = {
  cards: KeychainSummary[];
  page: number;
  numPages: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
  emptyState: DrawerEmptyState | undefined;
  selected: KeychainSummary | undefined;
};

function matchesSearch(keychain: KeychainSummary, search: string): boolean {
  const query = search.trim().toLowerCase();
  if (query === '') return true;
  return (
    keychain.name.toLowerCase().includes(query) ||
    (keychain.description ?? '').toLowerCase().includes(query)
  );
}

/** What the drawer shows for this state, the selectable keychains and the child's keychain ids. */
export function drawerView(
  state: AddKeychainDrawerState,
  keychains: SelectableKeychains,
  assignedIds: readonly string[],
): DrawerView {
  const isAvailable = (keychain: KeychainSummary) => !assignedIds.includes(keychain.id);
  const pool = keychains[state.source];
  const available = pool.filter(isAvailable);
  const matching = available.filter((keychain) => matchesSearch(keychain, state.search));
  const numPages = Math.max(1, Math.ceil(matching.length / KEYCHAINS_PER_PAGE));
  const page = Math.min(state.page, numPages - 1);
  const isSearching = state.search.trim() !== '';

  let emptyState: DrawerEmptyState | undefined;
  if (matching.length === 0) {
    if (state.source === 'own') {
      if (pool.length === 0) emptyState = 'noOwnKeychains';
      else if (available.length === 0) emptyState = 'childHasAllOwnKeychains';
      else emptyState = 'noOwnMatch';
    } else {
      emptyState = isSearching ? 'requestPublicKeychain' : 'noSelectableKeychains';
    }
  }

  const all = [...keychains.own, ...keychains.public].filter(isAvailable);
  return {
    cards: matching.slice(page * KEYCHAINS_PER_PAGE, (page + 1) * KEYCHAINS_PER_PAGE),
    page,
    numPages,
    hasPreviousPage: page > 0,
    hasNextPage: page < numPages - 1,
    emptyState,
    selected: all.find((keychain) => keychain.id === state.selectedId),
  };
}

export function canAddKeychain(state: AddKeychainDrawerState, view: DrawerView): boolean {
  if (!view.selected) return false;
  return !state.schedule || validateScheduleWindow(state.schedule.window) === null;
}

export function canRequestKeychain(state: AddKeychainDrawerState): boolean {
  return state.requestDescription.trim() !== '' && state.requestStatus !== 'loading';
}

function updateSchedule(
  state: AddKeychainDrawerState,
  update: (schedule: RuleSchedule) => RuleSchedule,
): AddKeychainDrawerState {
  return state.schedule ? { ...state, schedule: update(state.schedule) } : state;
}

export function addKeychainDrawerReducer(
  state: AddKeychainDrawerState,
  event: AddKeychainDrawerEvent,
): AddKeychainDrawerState {
  switch (event.type) {
    case 'opened':
      return { ...initialAddKeychainDrawerState(), isOpen: true };
    case 'closed':
    case 'escapePressed':
    case 'added':
      return { ...state, isOpen: false };
    case 'searchChanged':
      return {
        ...state,
        search: event.search,
        page: 0,
        requestStatus: state.requestStatus === 'loading' ? 'loading' : 'idle',
      };
    case 'sourceChanged':
      if (event.source === state.source) return state;
      return { ...state, source: event.source, page: 0, selectedId: undefined };
    case 'nextPageClicked':
      return { ...state, page: state.page + 1 };
    case 'previousPageClicked':
      return { ...state, page: Math.max(0, state.page - 1) };
    case 'keychainSelected':
      return { ...state, selectedId: event.id };
    case 'scheduleAdded':
      return { ...state, schedule: state.schedule ?? DEFAULT_ACTIVE_SCHEDULE };
    case 'scheduleRemoved':
      return { ...state, schedule: undefined };
    case 'scheduleModeChanged':
      return updateSchedule(state, (schedule) => ({ ...schedule, mode: event.mode }));
    case 'scheduleDayToggled':
      return updateSchedule(state, (schedule) => toggleDay(schedule, event.day));
    case 'scheduleWindowChanged':
      return updateSchedule(state, (schedule) => ({
        ...schedule,
        window: { start: clampTime(event.window.start), end: clampTime(event.window.end) },
      }));
    case 'requestDescriptionChanged':
      return { ...state, requestDescription: event.description };
    case 'requestStarted':
      if (!canRequestKeychain(state)) return state;
      return { ...state, requestStatus: 'loading' };
    case 'requestSucceeded':
      return { ...state, requestStatus: 'succeeded', requestDescription: '' };
    case 'requestFailed':
      return { ...state, requestStatus: 'failed' };
  }
}
