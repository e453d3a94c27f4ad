import type { Key } from '@keyward/contract/shared';
import {
  type AddressType,
  type AppNameOf,
  appNamesOf,
  commentPreview,
  isLargeSharedHost,
  type KeyEditorState,
  type KeyWizardStep,
  keyAddress,
  subdomainExamplesFor,
  validateAddress,
  wwwHint,
} from '@keyward/domain/keys';
import { CheckCircleIcon } from '@heroicons/react/20/solid';
import {
  type Dispatch,
  type ReactNode,
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
} from 'react';
import { Button } from '../../components/ui/Button';
import { cx } from '../../components/ui/cx';
import { Modal } from '../../components/ui/Modal';
import { Spinner } from '../../components/ui/Spinner';
import { TextInput } from '../../components/ui/TextInput';
import { Toggle } from '../../components/ui/Toggle';
import { errorMessage, toPqlError } from '../../lib/errors';
import { focusFirstField } from '../../lib/focus-trap';
import { useIdentifiedApps, useSaveKey } from './api';
import { APP_SEARCH_PLACEHOLDER, appChooserHint, matchingApps } from './app-chooser';
import {
  canGoBack,
  canGoNext,
  canSubmit,
  existingKeyWizardState,
  isLastStep,
  type KeyWizardEvent,
  type KeyWizardState,
  keyWizardReducer,
  newKeyWizardState,
  type SaveKeyInput,
  submitProblem,
  toDateInputValue,
  toSaveKeyInput,
  visibleSteps,
} from './key-wizard';
import { newId } from '../../lib/new-id';

export const SUBDOMAIN_EXAMPLE_INTERVAL_MS = 2000;

type KeyWizardProps = {
  keychainId: string;
  /** An existing key to edit; absent to create a new one. */
  existingKey?: Key;
  /** A ready starting state (e.g. a new key prefilled from an unlock request). */
  initialState?: KeyWizardState;
  /** Saves the key instead of the plain SaveKey; a rejection shows the error in the dialog. */
  onSave?: (input: SaveKeyInput) => Promise<void>;
  submitLabel?: string;
  /** a word about where the key applies (issue 33: a child with only Keyward DNS devices) */
  note?: string | undefined;
  onClose: () => void;
};

/** The 'Create a new key' / 'Edit key' dialog. Mount it only while open: it starts fresh each time. */
export function KeyWizard({
  keychainId,
  existingKey,
  initialState,
  onSave,
  submitLabel: customSubmitLabel,
  note,
  onClose,
}: KeyWizardProps) {
  const [state, dispatch] = useReducer(keyWizardReducer, undefined, () => {
    if (initialState) return initialState;
    return existingKey
      ? existingKeyWizardState(existingKey)
      : newKeyWizardState(keychainId, newId());
  });
  const saveKey = useSaveKey();
  const problemId = useId();

  async function submit() {
    const saving = toSaveKeyInput(state);
    if (!canSubmit(state) || !saving.ok) return;
    dispatch({ type: 'saveStarted' });
    try {
      if (onSave) {
        await onSave(saving.input);
        return;
      }
      await saveKey.mutateAsync(saving.input);
      onClose();
    } catch (error) {
      dispatch({ type: 'saveFailed', message: errorMessage(toPqlError(error)) });
    }
  }

  const isCreating = state.mode === 'create';
  const submitLabel = customSubmitLabel ?? (isCreating ? 'Create key' : 'Save key');
  const problem = submitProblem(state);
  const actions = (
    <>
      {problem && (
        <p
          id={problemId}
          role="status"
          className="rounded-lg bg-amber-50 px-3 py-2 text-left text-sm text-amber-900 sm:order-first sm:mr-auto sm:max-w-sm"
        >
          <span className="font-semibold">{problem.reason}</span> {problem.whatWorks}
        </p>
      )}
      <Button variant="secondary" onClick={onClose} className="sm:mr-auto">
        Cancel
      </Button>
      {isCreating && canGoBack(state) && (
        <Button variant="secondary" onClick={() => dispatch({ type: 'backClicked' })}>
          Back
        </Button>
      )}
      {isCreating && !isLastStep(state) ? (
        <Button onClick={() => dispatch({ type: 'nextClicked' })} disabled={!canGoNext(state)}>
          Next
        </Button>
      ) : (
        <Button
          onClick={() => void submit()}
          disabled={!canSubmit(state)}
          aria-describedby={problem ? problemId : undefined}
          isLoading={state.isSaving}
        >
          {submitLabel}
        </Button>
      )}
    </>
  );

  return (
    <Modal
      isOpen
      title={isCreating ? 'Create a new key' : 'Edit key'}
      onClose={onClose}
      actions={actions}
      size="lg"
      className="max-h-[92vh] overflow-y-auto"
    >
      {note && (
        <p role="note" className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {note}
        </p>
      )}
      <ol className="mt-3 space-y-2">
        {visibleSteps(state).map((step, index) => (
          <StepPanel key={step} step={step} number={index + 1} state={state} dispatch={dispatch} />
        ))}
      </ol>
      {state.saveError && (
        <p role="alert" className="mt-4 rounded-lg bg-red-50 p-3 text-sm text-red-700">
          {state.saveError}
        </p>
      )}
    </Modal>
  );
}

type StepProps = { state: KeyWizardState; dispatch: Dispatch<KeyWizardEvent> };

const STEP_TITLES: Record<KeyWizardStep, string> = {
  SetKeyType: 'Key type',
  WebsiteKey_SetAddress: 'Website address',
  WebsiteKey_SetAppScope: 'Affected apps',
  WebsiteKey_Advanced_ChooseApp: 'Choose app',
  AppKey_ChooseApp: 'Choose app',
  AppKey_SetAppScope: 'App internet access',
  AppKey_Advanced_SetAddress: 'Website address',
  Expiration: 'Expiration',
  Comment: 'Comment',
};

function appSummary(editor: KeyEditorState, appName: AppNameOf): string {
  if (editor.appIdentificationType === 'bundleId') return editor.appBundleId.trim() || 'No app';
  return editor.appSlug ? (appName(editor.appSlug) ?? editor.appSlug) : 'No app chosen';
}

/** A closed step's one-line summary, with apps named as in the catalogue ('Zoom'). */
function StepSummary({ step, editor }: { step: KeyWizardStep; editor: KeyEditorState }) {
  const apps = useIdentifiedApps({ enabled: editor.appSlug !== undefined });
  return <>{stepSummary(step, editor, appNamesOf(apps.data ?? []))}</>;
}

function stepSummary(step: KeyWizardStep, editor: KeyEditorState, appName: AppNameOf): string {
  switch (step) {
    case 'SetKeyType':
      return editor.keyType === 'website' ? 'Website' : 'App';
    case 'WebsiteKey_SetAddress':
    case 'AppKey_Advanced_SetAddress':
      return keyAddress(editor.address, editor.addressType) || 'No address';
    case 'WebsiteKey_SetAppScope':
      return { webBrowsers: 'Web browsers', unrestricted: 'Any app', singleApp: 'One app' }[
        editor.addressScope
      ];
    case 'WebsiteKey_Advanced_ChooseApp':
    case 'AppKey_ChooseApp':
      return appSummary(editor, appName);
    case 'AppKey_SetAppScope':
      return editor.appScope === 'unrestricted' ? 'Any address' : 'One address';
    case 'Expiration':
      return editor.expiration
        ? `Expires ${new Date(editor.expiration).toLocaleDateString()}`
        : 'Never expires';
    case 'Comment':
      return editor.comment.trim() ? commentPreview(editor.comment) : 'No comment';
  }
}

function StepPanel({
  step,
  number,
  state,
  dispatch,
}: StepProps & { step: KeyWizardStep; number: number }) {
  const isActive = state.activeStep === step;
  const title = STEP_TITLES[step];
  // Opening a step (Next, Back, a click on its title) moves focus to its first field.
  const content = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (isActive) focusFirstField(content.current);
  }, [isActive]);
  return (
    <li
      className={cx(
        'rounded-xl ring-1',
        isActive ? 'bg-white ring-violet-300' : 'bg-slate-50 ring-slate-200',
      )}
    >
      <button
        type="button"
        onClick={() => dispatch({ type: 'stepClicked', step })}
        aria-expanded={isActive}
        className="flex w-full items-center gap-3 rounded-xl px-4 py-3 text-left focus-visible:outline-2 focus-visible:outline-violet-500"
      >
        <span
          className={cx(
            'flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold',
            isActive ? 'bg-violet-600 text-white' : 'bg-slate-200 text-slate-700',
          )}
          aria-hidden="true"
        >
          {number}
        </span>
        <span className="font-semibold text-slate-900">{title}</span>
        {!isActive && (
          <span className="ml-auto min-w-0 truncate text-slate-500">
            <StepSummary step={step} editor={state.editor} />
          </span>
        )}
      </button>
      {isActive && (
        <div ref={content} className="px-4 pb-4">
          <StepContent step={step} state={state} dispatch={dispatch} />
        </div>
      )}
    </li>
  );
}

function StepContent({ step, state, dispatch }: StepProps & { step: KeyWizardStep }) {
  switch (step) {
    case 'SetKeyType':
      return (
        <Choices
          legend="Key type"
          value={state.editor.keyType}
          onChange={(keyType) => dispatch({ type: 'keyTypeChanged', keyType })}
          options={[
            { value: 'website', label: 'Website', description: 'Unlock a website address.' },
            { value: 'app', label: 'App', description: 'Unlock internet access for one app.' },
          ]}
        />
      );
    case 'WebsiteKey_SetAddress':
    case 'AppKey_Advanced_SetAddress':
      return <AddressStep state={state} dispatch={dispatch} />;
    case 'WebsiteKey_SetAppScope':
      return <AffectedAppsStep state={state} dispatch={dispatch} />;
    case 'WebsiteKey_Advanced_ChooseApp':
    case 'AppKey_ChooseApp':
      return <ChooseAppStep state={state} dispatch={dispatch} />;
    case 'AppKey_SetAppScope':
      return (
        <Choices
          legend="App internet access"
          value={state.editor.appScope}
          onChange={(appScope) => dispatch({ type: 'appScopeChanged', appScope })}
          options={[
            {
              value: 'unrestricted',
              label: 'Any address',
              description: 'The app may reach any website.',
            },
            {
              value: 'address',
              label: 'One address',
              description: 'The app may reach only one address.',
            },
          ]}
        />
      );
    case 'Expiration':
      return <ExpirationStep state={state} dispatch={dispatch} />;
    case 'Comment':
      return (
        <CommentStep
          comment={state.editor.comment}
          onChange={(comment) => dispatch({ type: 'commentChanged', comment })}
        />
      );
  }
}

type Choice<T extends string> = { value: T; label: string; description?: string };

function Choices<T extends string>({
  legend,
  value,
  options,
  onChange,
}: {
  legend: string;
  value: T;
  options: Choice<T>[];
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="sr-only">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((option) => (
          <label
            key={option.value}
            className={cx(
              'flex cursor-pointer gap-3 rounded-lg p-3 ring-1 ring-inset',
              option.value === value ? 'bg-violet-50 ring-violet-400' : 'bg-white ring-slate-200',
            )}
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
              className="mt-0.5 h-4 w-4 accent-violet-600"
            />
            <span>
              <span className="block font-medium text-slate-900">{option.label}</span>
              {option.description && (
                <span className="block text-xs text-slate-600">{option.description}</span>
              )}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const ADDRESS_TYPES: Choice<AddressType>[] = [
  { value: 'standard', label: 'Standard', description: 'The site and its subdomains.' },
  { value: 'strict', label: 'Strict', description: 'Exactly this address, no subdomains.' },
  { value: 'ip', label: 'IP address', description: 'An IPv4 or IPv6 address.' },
  { value: 'domainRegex', label: 'Pattern', description: 'Use * for any part: *.example.com.' },
];

/** 'www', 'images', ... one after another every 2 s; never one the address already starts with. */
function useRotatingSubdomain(address: string): string {
  const examples = subdomainExamplesFor(address);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    const timer = setInterval(
      () => setIndex((current) => current + 1),
      SUBDOMAIN_EXAMPLE_INTERVAL_MS,
    );
    return () => clearInterval(timer);
  }, []);
  return examples[index % examples.length] ?? 'www';
}

function AddressStep({ state, dispatch }: StepProps) {
  const { editor } = state;
  // What the key will hold: a pasted URL keeps its host, and a standard key drops a leading www.
  const address = keyAddress(editor.address, editor.addressType);
  const check = address === '' ? null : validateAddress(address, editor.addressType);
  return (
    <div className="space-y-4">
      <TextInput
        type="url"
        label={editor.addressType === 'ip' ? 'IP address' : 'Website address'}
        placeholder={editor.addressType === 'ip' ? '93.184.216.34' : 'example.com'}
        value={editor.address}
        onChange={(value) => dispatch({ type: 'addressChanged', address: value })}
        hint={wwwHint(editor.addressType)}
        error={check && !check.ok ? check.hint : undefined}
        autoComplete="off"
      />
      {check?.ok && <AddressExplanation address={address} addressType={editor.addressType} />}
      <Toggle
        label="Advanced"
        description="Choose how the address is matched."
        isOn={state.isAdvancedAddress}
        onChange={() => dispatch({ type: 'advancedAddressToggled' })}
      />
      {state.isAdvancedAddress && (
        <Choices
          legend="Address type"
          value={editor.addressType}
          options={ADDRESS_TYPES}
          onChange={(addressType) => dispatch({ type: 'addressTypeChanged', addressType })}
        />
      )}
    </div>
  );
}

function AddressExplanation({
  address,
  addressType,
}: {
  address: string;
  addressType: AddressType;
}) {
  if (addressType === 'standard' && !isLargeSharedHost(address)) {
    return <SubdomainExample address={address} />;
  }
  let text: ReactNode;
  if (addressType === 'standard' || addressType === 'strict') {
    text = isLargeSharedHost(address)
      ? `Large shared sites unlock only the exact address ${address}, never a subdomain.`
      : `Unlocks exactly ${address}, no subdomains.`;
  } else if (addressType === 'ip') {
    text = `Unlocks the IP address ${address}.`;
  } else {
    text = `Unlocks every address matching ${address}.`;
  }
  return <p className="flex items-center gap-1.5 text-xs text-green-700">{text}</p>;
}

function SubdomainExample({ address }: { address: string }) {
  const subdomain = useRotatingSubdomain(address);
  return (
    <p className="flex items-center gap-1.5 text-xs text-green-700" aria-live="polite">
      <CheckCircleIcon className="h-4 w-4" aria-hidden="true" />
      also unlocks {subdomain}.{address}
    </p>
  );
}

function AffectedAppsStep({ state, dispatch }: StepProps) {
  const options: Choice<KeyEditorState['addressScope']>[] = [
    { value: 'webBrowsers', label: 'Web browsers', description: 'Safari, Chrome, Firefox, ...' },
    { value: 'unrestricted', label: 'Any app', description: 'Every app on the computer.' },
  ];
  if (state.isAdvancedScope) {
    options.push({ value: 'singleApp', label: 'One app', description: 'Only the app you choose.' });
  }
  return (
    <div className="space-y-4">
      <Choices
        legend="Affected apps"
        value={state.editor.addressScope}
        options={options}
        onChange={(addressScope) => dispatch({ type: 'addressScopeChanged', addressScope })}
      />
      <Toggle
        label="Advanced"
        description="Limit the key to one app."
        isOn={state.isAdvancedScope}
        onChange={() => dispatch({ type: 'advancedScopeToggled' })}
      />
    </div>
  );
}

function ChooseAppStep({ state, dispatch }: StepProps) {
  const { editor } = state;
  const isBySlug = editor.appIdentificationType === 'slug';
  const apps = useIdentifiedApps({ enabled: isBySlug });
  const name = useId();
  const chosen = apps.data?.find((app) => app.slug === editor.appSlug);
  return (
    <div className="space-y-4">
      <Choices
        legend="How to identify the app"
        value={editor.appIdentificationType}
        onChange={(appIdentificationType) =>
          dispatch({ type: 'appIdentificationTypeChanged', appIdentificationType })
        }
        options={[
          { value: 'slug', label: 'Choose from list' },
          { value: 'bundleId', label: 'Bundle id' },
        ]}
      />
      {isBySlug ? (
        <div>
          <TextInput
            label="Search apps"
            value={state.appSearch}
            onChange={(query) => dispatch({ type: 'appSearchChanged', query })}
            placeholder={APP_SEARCH_PLACEHOLDER}
            hint={apps.data ? appChooserHint(apps.data, state.appSearch) : undefined}
            autoComplete="off"
          />
          {chosen && (
            <p className="mt-2 text-xs text-slate-600">
              Chosen: <span className="font-semibold text-slate-900">{chosen.name}</span>
            </p>
          )}
          {apps.isPending && <Spinner className="mt-3 h-5 w-5" label="Loading apps..." />}
          {apps.isError && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {errorMessage(apps.error)}
            </p>
          )}
          {apps.data && (
            <fieldset className="mt-3">
              <legend className="sr-only">Apps</legend>
              <div className="grid gap-1 sm:grid-cols-2">
                {matchingApps(apps.data, state.appSearch).map((app) => (
                  <label
                    key={app.id}
                    className={cx(
                      'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 ring-1 ring-inset',
                      app.slug === editor.appSlug
                        ? 'bg-violet-50 ring-violet-400'
                        : 'bg-white ring-slate-200',
                    )}
                  >
                    <input
                      type="radio"
                      name={name}
                      checked={app.slug === editor.appSlug}
                      onChange={() => dispatch({ type: 'appChosen', slug: app.slug })}
                      className="h-4 w-4 accent-violet-600"
                    />
                    <span className="truncate text-slate-900">{app.name}</span>
                  </label>
                ))}
              </div>
              {matchingApps(apps.data, state.appSearch).length === 0 && (
                <p className="text-sm text-slate-500">No app matches. Try its bundle id instead.</p>
              )}
            </fieldset>
          )}
        </div>
      ) : (
        <TextInput
          label="Bundle id"
          hint="At least 3 characters, e.g. us.zoom.xos"
          value={editor.appBundleId}
          onChange={(bundleId) => dispatch({ type: 'appBundleIdChanged', bundleId })}
          autoComplete="off"
          spellCheck={false}
        />
      )}
    </div>
  );
}

function ExpirationStep({ state, dispatch }: StepProps) {
  const { expiration } = state.editor;
  return (
    <div className="space-y-4">
      <Toggle
        label="Expires"
        description="The key stops working after this date."
        isOn={expiration !== undefined}
        onChange={() => dispatch({ type: 'expirationToggled', now: new Date() })}
      />
      {expiration !== undefined && (
        <TextInput
          type="date"
          label="Expiration date"
          value={toDateInputValue(expiration)}
          min={toDateInputValue(new Date().toISOString())}
          onChange={(date) => dispatch({ type: 'expirationDateChanged', date })}
          className="sm:max-w-xs"
        />
      )}
    </div>
  );
}

function CommentStep({
  comment,
  onChange,
}: {
  comment: string;
  onChange: (comment: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <div className="mb-1 flex items-baseline justify-between">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          Comment
        </label>
        <span className="text-xs text-slate-500">*optional</span>
      </div>
      <textarea
        id={id}
        rows={3}
        value={comment}
        maxLength={2000}
        onChange={(event) => onChange(event.target.value)}
        placeholder="Why this key exists"
        className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
      />
    </div>
  );
}
