import type { Key } from '@keyward/contract/shared';
import { IP_ADDRESS_HINT, newKeyEditorState, validateAddress } from '@keyward/domain/keys';
import { describe, expect, test } from 'vitest';
import {
  canGoBack,
  canGoNext,
  canSubmit,
  existingKeyWizardState,
  hasKeyChanges,
  type KeyWizardEvent,
  type KeyWizardState,
  keyWizardReducer,
  newKeyWizardState,
  prefilledKeyWizardState,
  submitProblem,
  toDateInputValue,
  toSaveKeyInput,
  visibleSteps,
  withExpirationDate,
} from './key-wizard';

const KEYCHAIN_ID = '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706';
const KEY_ID = '9d8c7b6a-5f4e-4d3c-8b2a-190817263544';

function run(state: KeyWizardState, ...events: KeyWizardEvent[]): KeyWizardState {
  return events.reduce(keyWizardReducer, state);
}

const fresh = () => newKeyWizardState(KEYCHAIN_ID, KEY_ID);
const next: KeyWizardEvent = { type: 'nextClicked' };
const back: KeyWizardEvent = { type: 'backClicked' };

describe('create mode', () => {
  test('starts at the key type step with only that step shown', () => {
    const state = fresh();
    expect(state.mode).toBe('create');
    expect(state.activeStep).toBe('SetKeyType');
    expect(visibleSteps(state)).toEqual(['SetKeyType']);
    expect(canGoBack(state)).toBe(false);
    expect(canGoNext(state)).toBe(true);
    expect(canSubmit(state)).toBe(false);
  });

  test('website flow: Next is disabled until the address is valid', () => {
    let state = run(fresh(), next);
    expect(state.activeStep).toBe('WebsiteKey_SetAddress');
    expect(canGoNext(state)).toBe(false);
    expect(run(state, next).activeStep).toBe('WebsiteKey_SetAddress');

    state = run(state, { type: 'addressChanged', address: 'not an address' });
    expect(canGoNext(state)).toBe(false);
    state = run(state, { type: 'addressChanged', address: 'https://Khan.example.org/maths?x=1' });
    expect(canGoNext(state)).toBe(true);

    state = run(state, next);
    expect(state.activeStep).toBe('WebsiteKey_SetAppScope');
    expect(visibleSteps(state)).toEqual([
      'SetKeyType',
      'WebsiteKey_SetAddress',
      'WebsiteKey_SetAppScope',
    ]);
    state = run(state, next, next);
    expect(state.activeStep).toBe('Comment');
    expect(canGoNext(state)).toBe(false);
    expect(canSubmit(state)).toBe(true);
  });

  test('Back walks the same path in reverse and stops at the first step', () => {
    const state = run(fresh(), next, { type: 'addressChanged', address: 'example.com' }, next);
    expect(state.activeStep).toBe('WebsiteKey_SetAppScope');
    const backOnce = run(state, back);
    expect(backOnce.activeStep).toBe('WebsiteKey_SetAddress');
    expect(run(backOnce, back, back, back).activeStep).toBe('SetKeyType');
  });

  test('website key for one app adds the choose-app step (advanced)', () => {
    let state = run(fresh(), next, { type: 'addressChanged', address: 'example.com' }, next);
    // one app is hidden until the advanced options are on
    expect(
      run(state, { type: 'addressScopeChanged', addressScope: 'singleApp' }).editor.addressScope,
    ).toBe('webBrowsers');
    state = run(
      state,
      { type: 'advancedScopeToggled' },
      { type: 'addressScopeChanged', addressScope: 'singleApp' },
      next,
    );
    expect(state.activeStep).toBe('WebsiteKey_Advanced_ChooseApp');
    expect(canGoNext(state)).toBe(false);
    state = run(state, { type: 'appChosen', slug: 'zoom' });
    expect(canGoNext(state)).toBe(true);
    state = run(state, { type: 'appIdentificationTypeChanged', appIdentificationType: 'bundleId' });
    expect(canGoNext(state)).toBe(false);
    state = run(state, { type: 'appBundleIdChanged', bundleId: 'us' });
    expect(canGoNext(state)).toBe(false);
    state = run(state, { type: 'appBundleIdChanged', bundleId: 'us.zoom.xos' });
    expect(canGoNext(state)).toBe(true);
    expect(run(state, next).activeStep).toBe('Expiration');
  });

  test('turning off the advanced scope options resets one app to web browsers', () => {
    const state = run(
      fresh(),
      { type: 'advancedScopeToggled' },
      { type: 'addressScopeChanged', addressScope: 'singleApp' },
    );
    expect(state.editor.addressScope).toBe('singleApp');
    const off = run(state, { type: 'advancedScopeToggled' });
    expect(off.isAdvancedScope).toBe(false);
    expect(off.editor.addressScope).toBe('webBrowsers');
    // any app is not advanced and survives the toggle
    const anyApp = run(
      state,
      { type: 'addressScopeChanged', addressScope: 'unrestricted' },
      { type: 'advancedScopeToggled' },
    );
    expect(anyApp.editor.addressScope).toBe('unrestricted');
  });

  test('app flow: choose app, any address, then expiration and comment', () => {
    let state = run(fresh(), { type: 'keyTypeChanged', keyType: 'app' }, next);
    expect(state.activeStep).toBe('AppKey_ChooseApp');
    expect(canGoNext(state)).toBe(false);
    state = run(state, { type: 'appChosen', slug: 'zoom' }, next);
    expect(state.activeStep).toBe('AppKey_SetAppScope');
    state = run(state, next);
    expect(state.activeStep).toBe('Expiration');
    state = run(state, next);
    expect(state.activeStep).toBe('Comment');
    const saved = toSaveKeyInput(state);
    expect(saved).toEqual({
      ok: true,
      input: {
        isNew: true,
        id: KEY_ID,
        keychainId: KEYCHAIN_ID,
        key: { type: 'skeleton', scope: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
      },
    });
  });

  test('app flow with one address asks for the address', () => {
    let state = run(
      fresh(),
      { type: 'keyTypeChanged', keyType: 'app' },
      next,
      { type: 'appChosen', slug: 'zoom' },
      next,
      { type: 'appScopeChanged', appScope: 'address' },
      next,
    );
    expect(state.activeStep).toBe('AppKey_Advanced_SetAddress');
    expect(canGoNext(state)).toBe(false);
    state = run(state, { type: 'addressChanged', address: 'zoom.us' }, next, next);
    expect(state.activeStep).toBe('Comment');
    const saved = toSaveKeyInput(state);
    expect(saved.ok && saved.input.key).toEqual({
      type: 'anySubdomain',
      domain: 'zoom.us',
      scope: { type: 'single', single: { type: 'identifiedAppSlug', identifiedAppSlug: 'zoom' } },
    });
  });

  test('clicking a reached step jumps to it; an unreached or the active step does nothing', () => {
    const state = run(fresh(), next, { type: 'addressChanged', address: 'example.com' }, next);
    expect(run(state, { type: 'stepClicked', step: 'SetKeyType' }).activeStep).toBe('SetKeyType');
    expect(run(state, { type: 'stepClicked', step: 'Comment' }).activeStep).toBe(
      'WebsiteKey_SetAppScope',
    );
    expect(run(state, { type: 'stepClicked', step: 'WebsiteKey_SetAppScope' })).toBe(state);
  });

  test('an IP typed as a standard address blocks Next with the IP hint until the IP type is chosen', () => {
    let state = run(fresh(), next, { type: 'addressChanged', address: '93.184.216.34' });
    expect(canGoNext(state)).toBe(false);
    expect(validateAddress('93.184.216.34', state.editor.addressType)).toEqual({
      ok: false,
      hint: IP_ADDRESS_HINT,
    });
    state = run(
      state,
      { type: 'advancedAddressToggled' },
      { type: 'addressTypeChanged', addressType: 'ip' },
    );
    expect(state.isAdvancedAddress).toBe(true);
    expect(canGoNext(state)).toBe(true);
  });
});

describe('expiration', () => {
  const now = new Date('2025-03-04T10:00:00.000Z');

  test('switching it on defaults to 7 days ahead; off removes it', () => {
    const on = run(fresh(), { type: 'expirationToggled', now });
    expect(on.editor.expiration).toBe('2025-03-11T10:00:00.000Z');
    expect(run(on, { type: 'expirationToggled', now }).editor.expiration).toBeUndefined();
  });

  test('a new date keeps the time of day; a malformed date is ignored', () => {
    const on = run(fresh(), { type: 'expirationToggled', now });
    const moved = run(on, { type: 'expirationDateChanged', date: '2025-04-01' });
    expect(toDateInputValue(moved.editor.expiration)).toBe('2025-04-01');
    expect(new Date(moved.editor.expiration ?? '').getHours()).toBe(
      new Date(on.editor.expiration ?? '').getHours(),
    );
    expect(run(on, { type: 'expirationDateChanged', date: '04/01/2025' })).toBe(on);
    expect(withExpirationDate('2025-03-11T10:00:00.000Z', '')).toBeNull();
  });

  test('is sent with the key', () => {
    const state = run(
      fresh(),
      next,
      { type: 'addressChanged', address: 'example.com' },
      next,
      next,
      { type: 'expirationToggled', now },
      { type: 'commentChanged', comment: '  for the science project  ' },
      next,
    );
    expect(toSaveKeyInput(state)).toEqual({
      ok: true,
      input: {
        isNew: true,
        id: KEY_ID,
        keychainId: KEYCHAIN_ID,
        key: { type: 'anySubdomain', domain: 'example.com', scope: { type: 'webBrowsers' } },
        comment: 'for the science project',
        expiration: '2025-03-11T10:00:00.000Z',
      },
    });
  });
});

describe('edit mode', () => {
  const existing: Key = {
    id: KEY_ID,
    keychainId: KEYCHAIN_ID,
    comment: 'Maths homework',
    expiration: '2025-06-01T12:00:00.000Z',
    key: {
      type: 'domain',
      domain: 'khanacademy.org',
      scope: { type: 'single', single: { type: 'bundleId', bundleId: 'com.google.Chrome' } },
    },
  };

  test('shows every step, none open, with the advanced options the key uses', () => {
    const state = existingKeyWizardState(existing);
    expect(state.mode).toBe('edit');
    expect(state.activeStep).toBeUndefined();
    expect(visibleSteps(state)).toEqual([
      'SetKeyType',
      'WebsiteKey_SetAddress',
      'WebsiteKey_SetAppScope',
      'WebsiteKey_Advanced_ChooseApp',
      'Expiration',
      'Comment',
    ]);
    expect(state.isAdvancedAddress).toBe(true);
    expect(state.isAdvancedScope).toBe(true);
    // nothing changed yet
    expect(canSubmit(state)).toBe(false);
  });

  test('Save key turns on once something changed, and off again when it is undone', () => {
    const opened = existingKeyWizardState(existing);
    expect(hasKeyChanges(opened)).toBe(false);
    expect(run(opened, { type: 'saveStarted' }).isSaving).toBe(false);

    const edited = run(opened, { type: 'commentChanged', comment: 'Maths' });
    expect(hasKeyChanges(edited)).toBe(true);
    expect(canSubmit(edited)).toBe(true);

    const undone = run(edited, { type: 'commentChanged', comment: 'Maths homework' });
    expect(canSubmit(undone)).toBe(false);

    // opening and closing steps is not a change
    const browsed = run(opened, { type: 'stepClicked', step: 'Comment' });
    expect(canSubmit(browsed)).toBe(false);
    // an expiration removed is a change
    expect(canSubmit(run(opened, { type: 'expirationToggled', now: new Date() }))).toBe(true);
  });

  test('a new key is never held back as unchanged', () => {
    expect(hasKeyChanges(newKeyWizardState(KEYCHAIN_ID, KEY_ID))).toBe(true);
  });

  test('clicking an inactive step opens it; clicking the active step closes it', () => {
    const open = run(existingKeyWizardState(existing), { type: 'stepClicked', step: 'Comment' });
    expect(open.activeStep).toBe('Comment');
    const other = run(open, { type: 'stepClicked', step: 'WebsiteKey_SetAddress' });
    expect(other.activeStep).toBe('WebsiteKey_SetAddress');
    expect(run(other, { type: 'stepClicked', step: 'WebsiteKey_SetAddress' }).activeStep).toBe(
      undefined,
    );
  });

  test('round trip: an unchanged existing key saves as the same key', () => {
    expect(toSaveKeyInput(existingKeyWizardState(existing))).toEqual({
      ok: true,
      input: {
        isNew: false,
        id: KEY_ID,
        keychainId: KEYCHAIN_ID,
        key: existing.key,
        comment: 'Maths homework',
        expiration: '2025-06-01T12:00:00.000Z',
      },
    });
  });

  test('an invalid edit cannot be submitted; saving twice is refused', () => {
    const broken = run(existingKeyWizardState(existing), {
      type: 'addressChanged',
      address: 'nope',
    });
    expect(canSubmit(broken)).toBe(false);
    expect(run(broken, { type: 'saveStarted' }).isSaving).toBe(false);

    const saving = run(
      existingKeyWizardState(existing),
      { type: 'commentChanged', comment: 'Maths' },
      { type: 'saveStarted' },
    );
    expect(saving.isSaving).toBe(true);
    expect(canSubmit(saving)).toBe(false);
    const failed = run(saving, { type: 'saveFailed', message: 'Nope' });
    expect(failed).toMatchObject({ isSaving: false, saveError: 'Nope' });
    // the next edit clears the server error
    expect(run(failed, { type: 'commentChanged', comment: 'x' }).saveError).toBeUndefined();
  });
});

describe('a new key prefilled in edit mode (accepting an unlock request)', () => {
  const prefilled = () =>
    prefilledKeyWizardState(KEYCHAIN_ID, KEY_ID, {
      ...newKeyEditorState(),
      keyType: 'app',
      appScope: 'address',
      address: 'zoom.us',
      addressType: 'strict',
      appIdentificationType: 'bundleId',
      appBundleId: 'us.zoom.xos',
    });

  test('shows every step at once, the address options open, and submits at once', () => {
    const state = prefilled();
    expect(state.mode).toBe('edit');
    expect(state.activeStep).toBeUndefined();
    expect(state.isAdvancedAddress).toBe(true);
    expect(visibleSteps(state)).toEqual([
      'SetKeyType',
      'AppKey_ChooseApp',
      'AppKey_SetAppScope',
      'AppKey_Advanced_SetAddress',
      'Expiration',
      'Comment',
    ]);
    expect(canSubmit(state)).toBe(true);
  });

  test('saves as a new key', () => {
    expect(toSaveKeyInput(prefilled())).toEqual({
      ok: true,
      input: {
        isNew: true,
        id: KEY_ID,
        keychainId: KEYCHAIN_ID,
        key: {
          type: 'domain',
          domain: 'zoom.us',
          scope: { type: 'single', single: { type: 'bundleId', bundleId: 'us.zoom.xos' } },
        },
      },
    });
  });

  test('a created key is new, an existing one is not', () => {
    expect(fresh().isNew).toBe(true);
    expect(
      existingKeyWizardState({
        id: KEY_ID,
        keychainId: KEYCHAIN_ID,
        key: { type: 'domain', domain: 'example.com', scope: { type: 'webBrowsers' } },
      }).isNew,
    ).toBe(false);
  });
});

describe('why the submit button is off (issue 32)', () => {
  test('an unlock request for a local name says why next to the button, and what would work', () => {
    const state = prefilledKeyWizardState(KEYCHAIN_ID, KEY_ID, {
      ...newKeyEditorState(),
      address: 'games.test',
    });
    expect(canSubmit(state)).toBe(false);
    expect(submitProblem(state)).toEqual({
      reason: expect.stringContaining("'games.test' does not end in a public domain ending"),
      whatWorks: expect.stringContaining('IP address'),
    });
  });

  test('nothing to say while the key can be saved, or before the last step of a new key', () => {
    const good = prefilledKeyWizardState(KEYCHAIN_ID, KEY_ID, {
      ...newKeyEditorState(),
      address: 'khanacademy.org',
    });
    expect(canSubmit(good)).toBe(true);
    expect(submitProblem(good)).toBeUndefined();
    expect(submitProblem(fresh())).toBeUndefined();
  });
});
