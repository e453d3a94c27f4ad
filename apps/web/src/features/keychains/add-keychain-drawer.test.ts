import type { KeychainSummary } from '@keyward/contract/shared';
import { DEFAULT_ACTIVE_SCHEDULE, END_BEFORE_START_HINT } from '@keyward/domain/schedule';
import { describe, expect, test } from 'vitest';
import {
  type AddKeychainDrawerEvent,
  type AddKeychainDrawerState,
  addKeychainDrawerReducer,
  canAddKeychain,
  canRequestKeychain,
  drawerView,
  initialAddKeychainDrawerState,
  type SelectableKeychains,
} from './add-keychain-drawer';

function keychain(n: number, overrides: Partial<KeychainSummary> = {}): KeychainSummary {
  const hex = n.toString(16).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${hex}`,
    parentId: '11111111-1111-4111-8111-111111111111',
    name: `Keychain ${n}`,
    isPublic: false,
    numKeys: n,
    ...overrides,
  };
}

const own = Array.from({ length: 14 }, (_, i) => keychain(i + 1));
const publicKeychains = [
  keychain(101, { name: 'School suite', description: 'Google Classroom and Docs', isPublic: true }),
  keychain(102, { name: 'Video calls', description: 'Zoom', isPublic: true, warning: 'Chat' }),
];
const all: SelectableKeychains = { own, public: publicKeychains };

function run(...events: AddKeychainDrawerEvent[]): AddKeychainDrawerState {
  return events.reduce(addKeychainDrawerReducer, initialAddKeychainDrawerState());
}
const open: AddKeychainDrawerEvent = { type: 'opened' };
const names = (cards: KeychainSummary[]) => cards.map((card) => card.name);

describe('opening and closing', () => {
  test('opens fresh on My keychains and closes on Escape', () => {
    const state = run(open, { type: 'searchChanged', search: 'x' }, { type: 'escapePressed' });
    expect(state.isOpen).toBe(false);
    const reopened = addKeychainDrawerReducer(state, open);
    expect(reopened).toEqual({ ...initialAddKeychainDrawerState(), isOpen: true });
  });

  test('closes after a keychain is added', () => {
    expect(run(open, { type: 'added' }).isOpen).toBe(false);
  });
});

describe('paging by 6', () => {
  test('splits the keychains into pages of 6 with Previous and Next', () => {
    const first = drawerView(run(open), all, []);
    expect(first.cards).toHaveLength(6);
    expect(first.numPages).toBe(3);
    expect(first.hasPreviousPage).toBe(false);
    expect(first.hasNextPage).toBe(true);

    const last = drawerView(
      run(open, { type: 'nextPageClicked' }, { type: 'nextPageClicked' }),
      all,
      [],
    );
    expect(names(last.cards)).toEqual(['Keychain 13', 'Keychain 14']);
    expect(last.hasNextPage).toBe(false);
    expect(last.hasPreviousPage).toBe(true);
    const back = run(open, { type: 'nextPageClicked' }, { type: 'previousPageClicked' });
    expect(back.page).toBe(0);
    expect(run(open, { type: 'previousPageClicked' }).page).toBe(0);
  });

  test('a page past the end shows the last page', () => {
    const state = run(
      open,
      { type: 'nextPageClicked' },
      { type: 'nextPageClicked' },
      { type: 'nextPageClicked' },
    );
    expect(drawerView(state, all, []).page).toBe(2);
  });
});

describe('search and toggle', () => {
  test('searching filters by name or description, case-insensitively, from page 1', () => {
    const state = run(open, { type: 'nextPageClicked' }, { type: 'searchChanged', search: ' 1' });
    expect(state.page).toBe(0);
    expect(names(drawerView(state, all, []).cards)).toEqual([
      'Keychain 1',
      'Keychain 10',
      'Keychain 11',
      'Keychain 12',
      'Keychain 13',
      'Keychain 14',
    ]);
    const byDescription = run(
      open,
      { type: 'sourceChanged', source: 'public' },
      { type: 'searchChanged', search: 'ZOOM' },
    );
    expect(names(drawerView(byDescription, all, []).cards)).toEqual(['Video calls']);
  });

  test('the toggle switches to public keychains, back to page 1, clearing the selection', () => {
    const state = run(
      open,
      { type: 'nextPageClicked' },
      { type: 'keychainSelected', id: own[7]?.id ?? '' },
      { type: 'sourceChanged', source: 'public' },
    );
    expect(state).toMatchObject({ source: 'public', page: 0, selectedId: undefined });
    expect(names(drawerView(state, all, []).cards)).toEqual(['School suite', 'Video calls']);
  });

  test('keychains the child already has are not offered', () => {
    const assigned = [own[0]?.id ?? '', publicKeychains[0]?.id ?? ''];
    expect(names(drawerView(run(open), all, assigned).cards)).not.toContain('Keychain 1');
    const publicView = drawerView(
      run(open, { type: 'sourceChanged', source: 'public' }),
      all,
      assigned,
    );
    expect(names(publicView.cards)).toEqual(['Video calls']);
  });
});

describe('selection and adding', () => {
  test('Add is disabled until a keychain is selected', () => {
    const state = run(open);
    expect(canAddKeychain(state, drawerView(state, all, []))).toBe(false);
    const selected = run(open, { type: 'keychainSelected', id: own[2]?.id ?? '' });
    const view = drawerView(selected, all, []);
    expect(view.selected?.name).toBe('Keychain 3');
    expect(canAddKeychain(selected, view)).toBe(true);
  });

  test('the optional schedule starts as the default active one and must end after it starts', () => {
    let state = run(
      open,
      { type: 'keychainSelected', id: own[0]?.id ?? '' },
      { type: 'scheduleAdded' },
    );
    expect(state.schedule).toEqual(DEFAULT_ACTIVE_SCHEDULE);
    state = addKeychainDrawerReducer(state, {
      type: 'scheduleWindowChanged',
      window: { start: { hour: 18, minute: 0 }, end: { hour: 9, minute: 0 } },
    });
    expect(END_BEFORE_START_HINT).toBe('End time must be after start time');
    expect(canAddKeychain(state, drawerView(state, all, []))).toBe(false);
    state = addKeychainDrawerReducer(state, {
      type: 'scheduleWindowChanged',
      window: { start: { hour: 8, minute: 0 }, end: { hour: 99, minute: 75 } },
    });
    expect(state.schedule?.window.end).toEqual({ hour: 23, minute: 59 });
    expect(canAddKeychain(state, drawerView(state, all, []))).toBe(true);
    state = addKeychainDrawerReducer(state, { type: 'scheduleModeChanged', mode: 'inactive' });
    expect(state.schedule?.mode).toBe('inactive');
    expect(addKeychainDrawerReducer(state, { type: 'scheduleRemoved' }).schedule).toBeUndefined();
  });

  test('the last selected day cannot be unchecked', () => {
    let state = run(open, { type: 'scheduleAdded' });
    for (const day of ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const) {
      state = addKeychainDrawerReducer(state, { type: 'scheduleDayToggled', day });
    }
    const onlySaturday = addKeychainDrawerReducer(state, {
      type: 'scheduleDayToggled',
      day: 'saturday',
    });
    expect(onlySaturday.schedule?.days.saturday).toBe(true);
  });
});

describe('empty states', () => {
  test('no own keychains at all', () => {
    expect(drawerView(run(open), { own: [], public: publicKeychains }, []).emptyState).toBe(
      'noOwnKeychains',
    );
  });

  test('the child already has all of the parent keychains', () => {
    const ids = own.map((k) => k.id);
    expect(drawerView(run(open), all, ids).emptyState).toBe('childHasAllOwnKeychains');
  });

  test('an own search with no match', () => {
    const state = run(open, { type: 'searchChanged', search: 'bible' });
    expect(drawerView(state, all, []).emptyState).toBe('noOwnMatch');
    expect(drawerView(run(open), all, []).emptyState).toBeUndefined();
  });

  test('no public keychains to offer', () => {
    const state = run(open, { type: 'sourceChanged', source: 'public' });
    expect(drawerView(state, { own, public: [] }, []).emptyState).toBe('noSelectableKeychains');
  });

  test('a public search with no match offers the request box', () => {
    const state = run(
      open,
      { type: 'sourceChanged', source: 'public' },
      { type: 'searchChanged', search: 'bible' },
    );
    expect(drawerView(state, all, []).emptyState).toBe('requestPublicKeychain');
  });
});

describe('requesting a public keychain', () => {
  const searching = run(
    open,
    { type: 'sourceChanged', source: 'public' },
    { type: 'searchChanged', search: 'bible' },
  );

  test('needs a description; goes idle → loading → succeeded', () => {
    expect(searching.requestStatus).toBe('idle');
    expect(canRequestKeychain(searching)).toBe(false);
    expect(addKeychainDrawerReducer(searching, { type: 'requestStarted' })).toBe(searching);
    const blank = addKeychainDrawerReducer(searching, {
      type: 'requestDescriptionChanged',
      description: '   ',
    });
    expect(canRequestKeychain(blank)).toBe(false);
    const described = addKeychainDrawerReducer(searching, {
      type: 'requestDescriptionChanged',
      description: 'A bible reading site',
    });
    expect(canRequestKeychain(described)).toBe(true);
    const loading = addKeychainDrawerReducer(described, { type: 'requestStarted' });
    expect(loading.requestStatus).toBe('loading');
    expect(canRequestKeychain(loading)).toBe(false);
    const done = addKeychainDrawerReducer(loading, { type: 'requestSucceeded' });
    expect(done.requestStatus).toBe('succeeded');
  });

  test('a failed request can be retried; a new search starts over', () => {
    const failed = run(
      open,
      { type: 'sourceChanged', source: 'public' },
      { type: 'searchChanged', search: 'bible' },
      { type: 'requestDescriptionChanged', description: 'Bible' },
      { type: 'requestStarted' },
      { type: 'requestFailed' },
    );
    expect(failed.requestStatus).toBe('failed');
    expect(canRequestKeychain(failed)).toBe(true);
    expect(
      addKeychainDrawerReducer(failed, { type: 'searchChanged', search: 'quran' }).requestStatus,
    ).toBe('idle');
  });
});
