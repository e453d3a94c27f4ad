import type { DashboardInput } from '@keyward/contract/dashboard';
import type { Key } from '@keyward/contract/shared';
import {
  type AddressScope,
  type AddressType,
  type AppIdentificationType,
  defaultExpiration,
  isStepValid,
  type KeyAppScope,
  type KeyEditorState,
  type KeyType,
  type KeyWizardStep,
  type KeyProblem,
  keyEditorStateToSharedKey,
  keyProblem,
  newKeyEditorState,
  nextStep,
  previousStep,
  sharedKeyToKeyEditorState,
  wizardSteps,
} from '@keyward/domain/keys';

// The key wizard (spec §4): stepwise with Back and Next when creating, every step open to edit
// when editing an existing key. The step rules themselves live in @keyward/domain/keys.

export type KeyWizardMode = 'create' | 'edit';

export type KeyWizardState = {
  mode: KeyWizardMode;
  /** Saved with isNew: a created key, or a prefilled one opened in edit mode. */
  isNew: boolean;
  keyId: string;
  keychainId: string;
  editor: KeyEditorState;
  /** The key as stored, when editing one: Save stays off until something differs from it. */
  savedEditor?: KeyEditorState;
  /** The open step; undefined when every step of an existing key is closed. */
  activeStep: KeyWizardStep | undefined;
  isAdvancedAddress: boolean;
  isAdvancedScope: boolean;
  appSearch: string;
  isSaving: boolean;
  saveError?: string;
};

export type KeyWizardEvent =
  | { type: 'keyTypeChanged'; keyType: KeyType }
  | { type: 'addressChanged'; address: string }
  | { type: 'addressTypeChanged'; addressType: AddressType }
  | { type: 'advancedAddressToggled' }
  | { type: 'addressScopeChanged'; addressScope: AddressScope }
  | { type: 'advancedScopeToggled' }
  | { type: 'appIdentificationTypeChanged'; appIdentificationType: AppIdentificationType }
  | { type: 'appSearchChanged'; query: string }
  | { type: 'appChosen'; slug: string }
  | { type: 'appBundleIdChanged'; bundleId: string }
  | { type: 'appScopeChanged'; appScope: KeyAppScope }
  | { type: 'expirationToggled'; now: Date }
  | { type: 'expirationDateChanged'; date: string }
  | { type: 'commentChanged'; comment: string }
  | { type: 'nextClicked' }
  | { type: 'backClicked' }
  | { type: 'stepClicked'; step: KeyWizardStep }
  | { type: 'saveStarted' }
  | { type: 'saveFailed'; message: string };

export function newKeyWizardState(keychainId: string, keyId: string): KeyWizardState {
  return {
    mode: 'create',
    isNew: true,
    keyId,
    keychainId,
    editor: newKeyEditorState(),
    activeStep: 'SetKeyType',
    isAdvancedAddress: false,
    isAdvancedScope: false,
    appSearch: '',
    isSaving: false,
  };
}

/** Opens an existing key with every step closed; advanced options show when the key uses them. */
export function existingKeyWizardState(key: Key): KeyWizardState {
  const editor = sharedKeyToKeyEditorState(key.key, key.comment, key.expiration);
  return {
    savedEditor: editor,
    mode: 'edit',
    isNew: false,
    keyId: key.id,
    keychainId: key.keychainId,
    editor,
    activeStep: undefined,
    isAdvancedAddress: editor.addressType !== 'standard',
    isAdvancedScope: editor.addressScope === 'singleApp',
    appSearch: '',
    isSaving: false,
  };
}

/**
 * A new key opened in edit mode with every step shown, prefilled (e.g. from an unlock request);
 * advanced options show when the prefill uses them.
 */
export function prefilledKeyWizardState(
  keychainId: string,
  keyId: string,
  editor: KeyEditorState,
): KeyWizardState {
  return {
    mode: 'edit',
    isNew: true,
    keyId,
    keychainId,
    editor,
    activeStep: undefined,
    isAdvancedAddress: editor.addressType !== 'standard',
    isAdvancedScope: editor.addressScope === 'singleApp',
    appSearch: '',
    isSaving: false,
  };
}

/** The steps on screen: all of them when editing, those reached so far when creating. */
export function visibleSteps(state: KeyWizardState): KeyWizardStep[] {
  const steps = wizardSteps(state.editor);
  if (state.mode === 'edit' || state.activeStep === undefined) return steps;
  return steps.slice(0, steps.indexOf(state.activeStep) + 1);
}

export function canGoNext(state: KeyWizardState): boolean {
  const { activeStep } = state;
  return (
    activeStep !== undefined &&
    isStepValid(activeStep, state.editor) &&
    nextStep(activeStep, state.editor) !== undefined
  );
}

export function canGoBack(state: KeyWizardState): boolean {
  return (
    state.activeStep !== undefined && previousStep(state.activeStep, state.editor) !== undefined
  );
}

export function isLastStep(state: KeyWizardState): boolean {
  return state.activeStep !== undefined && nextStep(state.activeStep, state.editor) === undefined;
}

/** Whether the parent changed anything of a stored key (always true for a key not yet stored). */
export function hasKeyChanges(state: KeyWizardState): boolean {
  return (
    state.savedEditor === undefined ||
    JSON.stringify(state.editor) !== JSON.stringify(state.savedEditor)
  );
}

/**
 * Create mode submits from the last step; edit mode whenever the key is complete and, for a stored
 * key, something changed.
 */
export function canSubmit(state: KeyWizardState): boolean {
  if (state.isSaving) return false;
  if (!hasKeyChanges(state)) return false;
  if (state.mode === 'create' && !isLastStep(state)) return false;
  const isEveryStepValid = wizardSteps(state.editor).every((step) =>
    isStepValid(step, state.editor),
  );
  return isEveryStepValid && keyEditorStateToSharedKey(state.editor).ok;
}

/**
 * Issue 32: why the submit button is off, said next to it, with what would work; undefined when it
 * is on, or off only while saving, with nothing changed, or before the last step of a new key.
 */
export function submitProblem(state: KeyWizardState): KeyProblem | undefined {
  if (state.isSaving || !hasKeyChanges(state)) return undefined;
  if (state.mode === 'create' && !isLastStep(state)) return undefined;
  return keyProblem(state.editor);
}

export type SaveKeyInput = DashboardInput<'SaveKey'>;

/** The SaveKey body, or the reason the key cannot be saved yet. */
export function toSaveKeyInput(
  state: KeyWizardState,
): { ok: true; input: SaveKeyInput } | { ok: false; error: string } {
  const conversion = keyEditorStateToSharedKey(state.editor);
  if (!conversion.ok) return conversion;
  const input: SaveKeyInput = {
    isNew: state.isNew,
    id: state.keyId,
    keychainId: state.keychainId,
    key: conversion.key,
  };
  if (conversion.comment !== undefined) input.comment = conversion.comment;
  if (conversion.expiration !== undefined) input.expiration = conversion.expiration;
  return { ok: true, input };
}

const DATE_INPUT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' of an ISO date in local time, for <input type="date">. */
export function toDateInputValue(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The expiration moved to another local day, keeping its time of day; null for a bad date. */
export function withExpirationDate(iso: string, date: string): string | null {
  const match = DATE_INPUT.exec(date);
  if (!match) return null;
  const next = new Date(iso);
  next.setFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(next.getTime()) ? null : next.toISOString();
}

function edit(state: KeyWizardState, changes: Partial<KeyEditorState>): KeyWizardState {
  return { ...state, editor: { ...state.editor, ...changes }, saveError: undefined };
}

export function keyWizardReducer(state: KeyWizardState, event: KeyWizardEvent): KeyWizardState {
  const { editor } = state;
  switch (event.type) {
    case 'keyTypeChanged':
      return edit(state, { keyType: event.keyType });
    case 'addressChanged':
      return edit(state, { address: event.address });
    case 'addressTypeChanged':
      return edit(state, { addressType: event.addressType });
    case 'advancedAddressToggled':
      return { ...state, isAdvancedAddress: !state.isAdvancedAddress };
    case 'addressScopeChanged':
      if (event.addressScope === 'singleApp' && !state.isAdvancedScope) return state;
      return edit(state, { addressScope: event.addressScope });
    case 'advancedScopeToggled': {
      const isAdvancedScope = !state.isAdvancedScope;
      const next = { ...state, isAdvancedScope };
      // One app is an advanced option: hiding the options must not leave it chosen.
      if (!isAdvancedScope && editor.addressScope === 'singleApp') {
        return edit(next, { addressScope: 'webBrowsers' });
      }
      return next;
    }
    case 'appIdentificationTypeChanged':
      return edit(state, { appIdentificationType: event.appIdentificationType });
    case 'appSearchChanged':
      return { ...state, appSearch: event.query };
    case 'appChosen':
      return edit(state, { appSlug: event.slug });
    case 'appBundleIdChanged':
      return edit(state, { appBundleId: event.bundleId });
    case 'appScopeChanged':
      return edit(state, { appScope: event.appScope });
    case 'expirationToggled':
      return edit(state, {
        expiration: editor.expiration === undefined ? defaultExpiration(event.now) : undefined,
      });
    case 'expirationDateChanged': {
      if (editor.expiration === undefined) return state;
      const expiration = withExpirationDate(editor.expiration, event.date);
      return expiration ? edit(state, { expiration }) : state;
    }
    case 'commentChanged':
      return edit(state, { comment: event.comment });
    case 'nextClicked': {
      if (!canGoNext(state) || state.activeStep === undefined) return state;
      return { ...state, activeStep: nextStep(state.activeStep, editor) };
    }
    case 'backClicked': {
      if (!canGoBack(state) || state.activeStep === undefined) return state;
      return { ...state, activeStep: previousStep(state.activeStep, editor) };
    }
    case 'stepClicked': {
      if (event.step === state.activeStep) {
        return state.mode === 'edit' ? { ...state, activeStep: undefined } : state;
      }
      if (!visibleSteps(state).includes(event.step)) return state;
      return { ...state, activeStep: event.step };
    }
    case 'saveStarted':
      if (!canSubmit(state)) return state;
      return { ...state, isSaving: true, saveError: undefined };
    case 'saveFailed':
      return { ...state, isSaving: false, saveError: event.message };
  }
}
