import type { GetIOSDeviceOutput } from '@keyward/contract/shared';
import {
  type BlockRuleCondition,
  type BlockRuleType,
  CONDITION_LABELS,
} from '@keyward/domain/block-rules';
import { suspensionDurationLabel } from '@keyward/domain/suspension-grant';
import { timeAgo } from '@keyward/domain/wording';
import { PencilSquareIcon, PlusIcon, TrashIcon, XMarkIcon } from '@heroicons/react/24/outline';
import { type FormEvent, useId, useReducer, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Button, LinkButton } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { cx } from '../../components/ui/cx';
import { DeleteModal } from '../../components/ui/DeleteModal';
import { LoadFailure } from '../../components/ui/LoadFailure';
import { PageHeading } from '../../components/ui/PageHeading';
import { Spinner } from '../../components/ui/Spinner';
import { TextInput } from '../../components/ui/TextInput';
import { Toggle } from '../../components/ui/Toggle';
import { errorMessage, toPqlError } from '../../lib/errors';
import { useDeleteBlockRule, useIosDevice, useUpdateIosDevice, useUpsertBlockRule } from './api';
import {
  ADDRESS_PLACEHOLDER,
  APP_PLACEHOLDER,
  type BlockRuleEditorState,
  blockRuleEditorReducer,
  blockRuleInWords,
  canSaveBlockRule,
  closedBlockRuleEditor,
  conditionsFor,
  isEditableRule,
  toUpsertBlockRuleInput,
} from './block-rule-editor';
import { IosDeviceIcon } from './DeviceIcon';
import {
  canAddDomainInput,
  canSaveSettings,
  hasSettingsChanged,
  type IosDeviceSettingsEvent,
  type IosDeviceSettingsState,
  initialIosDeviceSettings,
  iosDeviceSettingsReducer,
  showsDomains,
  toUpdateIosDeviceInput,
  WEB_POLICIES,
} from './ios-device-settings';

const selectClasses =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none';

/** `/ios-devices/:deviceId`: block groups, web content filter, domains, block rules. */
export default function IOSDevicePage({ now }: { now?: Date }) {
  const { deviceId = '' } = useParams();
  const device = useIosDevice(deviceId);

  if (device.isPending) return <Spinner className="h-8 w-8" label="Loading iOS device..." />;
  if (device.isError) {
    if (device.error.type === 'loggedOut') return null; // the hook is already redirecting
    return (
      <LoadFailure error={device.error} backTo="/ios-devices" backLabel="Back to iOS devices" />
    );
  }
  const data = device.data;
  return (
    <>
      <PageHeading
        title={`${data.childName}'s ${data.deviceType}`}
        description={
          <span className="inline-flex items-center gap-1.5">
            <IosDeviceIcon deviceType={data.deviceType} className="h-4 w-4" />
            {data.deviceType} · iOS {data.osVersion}
          </span>
        }
      />
      <div className="max-w-3xl space-y-6">
        <PendingSuspensionRequests device={data} now={now ?? new Date()} />
        <IosDeviceSettingsForm key={deviceId} deviceId={deviceId} device={data} />
        <BlockRules deviceId={deviceId} device={data} />
      </div>
    </>
  );
}

function PendingSuspensionRequests({ device, now }: { device: GetIOSDeviceOutput; now: Date }) {
  const requests = device.pendingSuspensionRequests ?? [];
  if (requests.length === 0 || !device.childId) return null;
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">Suspension requests</h2>
      <p className="mt-1 text-sm text-slate-500">
        {device.childName} asked to suspend the filter on this {device.deviceType}.
      </p>
      <ul className="mt-3 divide-y divide-slate-100">
        {requests.map((request) => (
          <li
            key={request.id}
            className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between"
          >
            <div className="min-w-0 text-sm">
              <p className="font-medium text-slate-900">
                {suspensionDurationLabel(request.duration)}{' '}
                <span className="font-normal text-slate-500">
                  · <time dateTime={request.createdAt}>{timeAgo(request.createdAt, now)}</time>
                </span>
              </p>
              {request.comment && (
                <p className="mt-0.5 break-words text-slate-600 italic">“{request.comment}”</p>
              )}
            </div>
            <LinkButton
              to={`/children/${device.childId}/suspend-filter-requests/${request.id}`}
              size="sm"
            >
              Review request
            </LinkButton>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function IosDeviceSettingsForm({
  deviceId,
  device,
}: {
  deviceId: string;
  device: GetIOSDeviceOutput;
}) {
  const [state, dispatch] = useReducer(iosDeviceSettingsReducer, device, initialIosDeviceSettings);
  const update = useUpdateIosDevice();

  async function save() {
    if (!canSaveSettings(state)) return;
    dispatch({ type: 'saveClicked' });
    try {
      await update.mutateAsync(toUpdateIosDeviceInput(deviceId, state));
      dispatch({ type: 'saveSucceeded' });
    } catch {
      dispatch({ type: 'saveFailed' }); // the error toast has told the parent
    }
  }

  return (
    <>
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Block groups</h2>
        <p className="mt-1 text-sm text-slate-500">
          Each group blocks a set of apps and addresses on this {device.deviceType}.
        </p>
        <div className="mt-4 space-y-4">
          {device.allBlockGroups.map((group) => (
            <Toggle
              key={group.id}
              label={group.name}
              isOn={state.draft.enabledBlockGroups.includes(group.id)}
              onChange={() => dispatch({ type: 'blockGroupToggled', groupId: group.id })}
            />
          ))}
        </div>
      </Card>

      <Card>
        <WebPolicyChooser state={state} dispatch={dispatch} />
        {showsDomains(state) && <DomainList state={state} dispatch={dispatch} />}
      </Card>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        {hasSettingsChanged(state) && !state.isSaving && (
          <Button variant="secondary" onClick={() => dispatch({ type: 'changesDiscarded' })}>
            Discard changes
          </Button>
        )}
        <Button
          onClick={() => void save()}
          disabled={!canSaveSettings(state)}
          isLoading={state.isSaving}
        >
          Save settings
        </Button>
      </div>
    </>
  );
}

type SettingsProps = {
  state: IosDeviceSettingsState;
  dispatch: (event: IosDeviceSettingsEvent) => void;
};

function WebPolicyChooser({ state, dispatch }: SettingsProps) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-lg font-semibold text-slate-900">Web content filter</legend>
      <p className="mt-1 text-sm text-slate-500">Which websites open in browsers and apps.</p>
      <div className="mt-4 grid gap-2">
        {WEB_POLICIES.map(({ policy, label, description }) => {
          const isChosen = state.draft.webPolicy === policy;
          return (
            <label
              key={policy}
              className={cx(
                'flex cursor-pointer items-start gap-3 rounded-lg px-3 py-2.5 ring-1 ring-inset',
                isChosen ? 'bg-violet-50 ring-violet-400' : 'bg-white ring-slate-200',
              )}
            >
              <input
                type="radio"
                name={name}
                checked={isChosen}
                onChange={() => dispatch({ type: 'webPolicyChosen', policy })}
                className="mt-0.5 h-4 w-4 accent-violet-600"
              />
              <span className="min-w-0">
                <span className="block text-sm font-medium text-slate-900">{label}</span>
                <span className="block text-sm text-slate-600">{description}</span>
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function DomainList({ state, dispatch }: SettingsProps) {
  const isAllowList = state.draft.webPolicy === 'blockAllExcept';
  const domains = state.draft.webPolicyDomains;
  function add(event: FormEvent) {
    event.preventDefault();
    dispatch({ type: 'domainAdded' });
  }
  return (
    <div className="mt-6 border-t border-slate-100 pt-5">
      <h3 className="text-sm font-semibold text-slate-900">
        {isAllowList ? 'Allowed domains' : 'Blocked domains'}
      </h3>
      <p className="mt-1 text-sm text-slate-500">
        {isAllowList
          ? 'These websites open, with their subdomains. Add one domain at a time.'
          : 'These websites are blocked, with their subdomains. Add one domain at a time.'}
      </p>
      {domains.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500 italic">No domains yet.</p>
      ) : (
        <ul
          aria-label={isAllowList ? 'Allowed domains' : 'Blocked domains'}
          className="mt-3 flex flex-wrap gap-2"
        >
          {domains.map((domain) => (
            <li
              key={domain}
              className="inline-flex max-w-full items-center gap-1 rounded-full bg-violet-50 py-1 pr-1 pl-3 text-sm text-violet-800"
            >
              <span className="truncate">{domain}</span>
              <button
                type="button"
                onClick={() => dispatch({ type: 'domainRemoved', domain })}
                aria-label={`Remove ${domain}`}
                className="rounded-full p-1 hover:bg-violet-100 focus-visible:outline-2 focus-visible:outline-violet-500"
              >
                <XMarkIcon className="h-4 w-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {/* noValidate: a domain is not a full URL, and the reducer does the checking */}
      <form onSubmit={add} noValidate className="mt-4 flex items-end gap-3">
        <TextInput
          label="Domain"
          type="url"
          value={state.domainInput}
          onChange={(value) => dispatch({ type: 'domainInputChanged', value })}
          error={state.domainError}
          placeholder="khanacademy.org"
          autoComplete="off"
          className="min-w-0 flex-1"
        />
        <Button type="submit" variant="secondary" disabled={!canAddDomainInput(state)}>
          <PlusIcon className="h-4 w-4" aria-hidden="true" />
          Add domain
        </Button>
      </form>
    </div>
  );
}

function BlockRules({ deviceId, device }: { deviceId: string; device: GetIOSDeviceOutput }) {
  const [editor, dispatch] = useReducer(blockRuleEditorReducer, closedBlockRuleEditor);
  const [deletingId, setDeletingId] = useState<string | undefined>();
  const upsert = useUpsertBlockRule();
  const deleteRule = useDeleteBlockRule();

  // Set on the first click, before React re-renders: a double click adds one rule (issue 20).
  const isSaving = useRef(false);

  async function save() {
    const input = toUpsertBlockRuleInput(deviceId, editor);
    if (!input || !canSaveBlockRule(editor) || isSaving.current) return;
    isSaving.current = true;
    dispatch({ type: 'saveClicked' });
    try {
      await upsert.mutateAsync(input);
      dispatch({ type: 'saveSucceeded' });
    } catch (error) {
      dispatch({ type: 'saveFailed', message: errorMessage(toPqlError(error)) });
    } finally {
      isSaving.current = false;
    }
  }

  async function confirmDelete() {
    if (!deletingId) return;
    try {
      await deleteRule.mutateAsync({ type: 'blockRule', id: deletingId });
      if (editor.phase !== 'closed' && editor.ruleId === deletingId) {
        dispatch({ type: 'cancelClicked' });
      }
    } catch {
      // the error toast has told the parent
    }
    setDeletingId(undefined);
  }

  const rules = device.customBlockRules;
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Block rules</h2>
          <p className="mt-1 text-sm text-slate-500">
            Your own rules for this {device.deviceType}, on top of the block groups. Each rule is
            saved on its own.
          </p>
        </div>
        {editor.phase === 'closed' && (
          <Button variant="secondary" size="sm" onClick={() => dispatch({ type: 'addClicked' })}>
            <PlusIcon className="h-4 w-4" aria-hidden="true" />
            Add block rule
          </Button>
        )}
      </div>
      {rules.length === 0 ? (
        <div className="mt-4 rounded-xl border-2 border-dashed border-slate-200 px-4 py-6 text-center">
          <p className="text-sm font-semibold text-slate-900">No block rules</p>
        </div>
      ) : (
        <ul aria-label="Block rules" className="mt-4 divide-y divide-slate-100">
          {rules.map(({ id, rule }) => (
            <li key={id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <span className="min-w-0 text-sm break-words text-slate-900">
                {blockRuleInWords(rule)}
              </span>
              <span className="flex shrink-0 gap-1">
                {isEditableRule(rule) && (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Edit rule: ${blockRuleInWords(rule)}`}
                    disabled={editor.phase === 'saving'}
                    onClick={() => dispatch({ type: 'editClicked', ruleId: id, rule })}
                  >
                    <PencilSquareIcon className="h-4 w-4" aria-hidden="true" />
                    Edit
                  </Button>
                )}
                <Button
                  variant="dangerGhost"
                  size="sm"
                  aria-label={`Delete rule: ${blockRuleInWords(rule)}`}
                  onClick={() => setDeletingId(id)}
                >
                  <TrashIcon className="h-4 w-4" aria-hidden="true" />
                  Delete
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {editor.phase !== 'closed' && (
        <BlockRuleForm state={editor} onEvent={dispatch} onSave={() => void save()} />
      )}
      <DeleteModal
        isOpen={deletingId !== undefined}
        type="block rule"
        isDeleting={deleteRule.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeletingId(undefined)}
      />
    </Card>
  );
}

function BlockRuleForm({
  state,
  onEvent,
  onSave,
}: {
  state: Exclude<BlockRuleEditorState, { phase: 'closed' }>;
  onEvent: (event: Parameters<typeof blockRuleEditorReducer>[1]) => void;
  onSave: () => void;
}) {
  const typeName = useId();
  const conditionId = useId();
  const linesId = useId();
  const { editor } = state;
  const isApp = editor.type === 'app';
  const types: [BlockRuleType, string][] = [
    ['app', 'An app'],
    ['address', 'An address'],
  ];
  function submit(event: FormEvent) {
    event.preventDefault();
    onSave();
  }
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={state.ruleId ? 'Edit block rule' : 'New block rule'}
      className="mt-4 space-y-4 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200"
    >
      <h3 className="text-sm font-semibold text-slate-900">
        {state.ruleId ? 'Edit block rule' : 'New block rule'}
      </h3>
      <fieldset>
        <legend className="mb-1 text-sm font-medium text-slate-700">Block</legend>
        <div className="flex flex-wrap gap-2">
          {types.map(([type, label]) => (
            <label
              key={type}
              className={cx(
                'flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset',
                editor.type === type ? 'bg-violet-50 ring-violet-400' : 'bg-white ring-slate-200',
              )}
            >
              <input
                type="radio"
                name={typeName}
                checked={editor.type === type}
                onChange={() => onEvent({ type: 'ruleTypeChanged', ruleType: type })}
                className="h-4 w-4 accent-violet-600"
              />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <TextInput
        label={isApp ? 'App' : 'Address'}
        type={isApp ? 'text' : 'url'}
        value={editor.primaryValue}
        onChange={(value) => onEvent({ type: 'primaryValueChanged', value })}
        placeholder={isApp ? APP_PLACEHOLDER : ADDRESS_PLACEHOLDER}
        hint={isApp ? 'Blocks every app whose bundle id contains this.' : undefined}
        autoComplete="off"
        maxLength={253}
      />
      <div>
        <label htmlFor={conditionId} className="mb-1 block text-sm font-medium text-slate-700">
          Condition
        </label>
        <select
          id={conditionId}
          value={editor.condition}
          onChange={(event) =>
            onEvent({
              type: 'conditionChanged',
              condition: event.target.value as BlockRuleCondition,
            })
          }
          className={cx(selectClasses, 'sm:max-w-xs')}
        >
          {conditionsFor(state).map((condition) => (
            <option key={condition} value={condition}>
              {CONDITION_LABELS[condition]}
            </option>
          ))}
        </select>
      </div>
      {editor.condition === 'whenAddressContains' && (
        <TextInput
          label="Address contains"
          type="url"
          value={editor.secondaryValue}
          onChange={(value) => onEvent({ type: 'secondaryValueChanged', value })}
          placeholder="shorts"
          autoComplete="off"
          maxLength={253}
        />
      )}
      {editor.condition === 'unlessAddressContains' && (
        <div>
          <label htmlFor={linesId} className="mb-1 block text-sm font-medium text-slate-700">
            Addresses (one per line)
          </label>
          <textarea
            id={linesId}
            rows={3}
            value={editor.secondaryValue}
            onChange={(event) =>
              onEvent({ type: 'secondaryValueChanged', value: event.target.value })
            }
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            placeholder={'khanacademy.org\nwikipedia.org'}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
          />
        </div>
      )}
      {state.error && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
          {state.error}
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button
          variant="secondary"
          disabled={state.phase === 'saving'}
          onClick={() => onEvent({ type: 'cancelClicked' })}
        >
          Cancel
        </Button>
        <Button
          type="submit"
          disabled={!canSaveBlockRule(state)}
          isLoading={state.phase === 'saving'}
        >
          Save rule
        </Button>
      </div>
    </form>
  );
}
