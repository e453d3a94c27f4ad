import type { UserDevice } from '@keyward/contract/shared';
import { SCREENSHOTS_RESOLUTION_HINT } from '@keyward/domain/child-settings';
import { PlusIcon, TrashIcon } from '@heroicons/react/24/outline';
import {
  alertCategoryHint,
  alertCategoryLabel,
  BUILT_IN_ALERT_CATEGORIES,
  CUSTOM_ALERT_CATEGORY,
} from '@keyward/domain/alert-categories';
import { type Dispatch, type FormEvent, type ReactNode, useId } from 'react';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ComputerIcon } from '../../components/ui/ComputerIcon';
import { ScheduleEditor } from '../../components/ui/ScheduleEditor';
import { StatusBadge } from '../../components/ui/StatusBadge';
import { TextInput } from '../../components/ui/TextInput';
import { TimeInput } from '../../components/ui/TimeInput';
import { Toggle } from '../../components/ui/Toggle';
import {
  type ChildDraftErrors,
  type ChildEditorEvent,
  type ChildEditorState,
  canAddBlockedApp,
} from './child-editor';
import { computerName } from './child-summary';
import { newId } from '../../lib/new-id';

type SectionProps = {
  state: ChildEditorState;
  errors: ChildDraftErrors;
  dispatch: Dispatch<ChildEditorEvent>;
};

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card>
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      {description && <p className="mt-1 text-sm text-slate-500">{description}</p>}
      <div className="mt-5">{children}</div>
    </Card>
  );
}

export function ComputersSection({
  devices,
  onAddComputer,
  onDeleteConnection,
}: {
  devices: UserDevice[];
  onAddComputer: () => void;
  onDeleteConnection: (device: UserDevice) => void;
}) {
  return (
    <Section title="Computers">
      <ul className="divide-y divide-slate-100">
        {devices.map((device) => (
          <li key={device.id} className="flex items-center gap-3 py-3">
            <ComputerIcon family={device.modelFamily} className="h-8 w-8" />
            <div className="flex min-w-0 flex-1 flex-wrap items-center justify-between gap-x-3 gap-y-1">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900">
                  {computerName(device)}
                </p>
                {device.customName && (
                  <p className="truncate text-xs text-slate-500">{device.modelTitle}</p>
                )}
              </div>
              <StatusBadge status={device.status} />
            </div>
            <button
              type="button"
              onClick={() => onDeleteConnection(device)}
              aria-label={`Delete connection to ${computerName(device)}`}
              title="Delete connection"
              className="rounded-lg p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-violet-500"
            >
              <TrashIcon className="h-5 w-5" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onAddComputer}>
        <PlusIcon className="h-4 w-4" aria-hidden="true" />
        Add computer
      </Button>
    </Section>
  );
}

export function NameSection({ state, errors, dispatch }: SectionProps) {
  return (
    <Section title="Name">
      <TextInput
        label="Child's name"
        hideLabel
        value={state.draft.name}
        onChange={(name) => dispatch({ type: 'nameChanged', name })}
        error={errors.name}
        autoComplete="off"
      />
    </Section>
  );
}

export function MonitoringSection({ state, errors, dispatch }: SectionProps) {
  const { draft } = state;
  return (
    <Section title="Monitoring">
      <div className="space-y-6">
        <Toggle
          label="Keystroke logging"
          description="Record what your child types."
          isOn={draft.keyloggingEnabled}
          onChange={() => dispatch({ type: 'keyloggingToggled' })}
        />
        <div>
          <Toggle
            label="Screenshots"
            description="Take screenshots of your child's screen."
            isOn={draft.screenshotsEnabled}
            onChange={() => dispatch({ type: 'screenshotsToggled' })}
          />
          {draft.screenshotsEnabled && (
            <div className="mt-4 grid gap-4 sm:grid-cols-2">
              <TextInput
                type="positiveInteger"
                label="Resolution (pixels)"
                hint={SCREENSHOTS_RESOLUTION_HINT}
                value={draft.screenshotsResolution}
                onChange={(value) => dispatch({ type: 'screenshotsResolutionChanged', value })}
                error={errors.screenshotsResolution}
              />
              <TextInput
                type="positiveInteger"
                label="Frequency (seconds)"
                hint="One screenshot every this many seconds, at least 10."
                value={draft.screenshotsFrequency}
                onChange={(value) => dispatch({ type: 'screenshotsFrequencyChanged', value })}
                error={errors.screenshotsFrequency}
              />
            </div>
          )}
        </div>
        <Toggle
          label="Show suspension activity"
          description="Highlight activity recorded while the filter was suspended."
          isOn={draft.showSuspensionActivity}
          onChange={() => dispatch({ type: 'showSuspensionActivityToggled' })}
        />
      </div>
    </Section>
  );
}

/** Issue 24: what typed text alerts the parent about (docs/activity-alerts.md). */
export function AlertsSection({ state, errors, dispatch }: SectionProps) {
  const { draft } = state;
  const wordsId = useId();
  const hintId = useId();
  return (
    <Section
      title="Alerts"
      description={
        draft.keyloggingEnabled
          ? 'Typed text that matches is flagged, shown first in the review, and sent to your Alerts notifications.'
          : 'Alerts look at what your child types, so they work while keystroke logging is on.'
      }
    >
      <div className="space-y-5">
        {BUILT_IN_ALERT_CATEGORIES.map((category) => (
          <Toggle
            key={category}
            label={alertCategoryLabel(category)}
            description={alertCategoryHint(category)}
            isOn={draft.alertCategories.includes(category)}
            onChange={() => dispatch({ type: 'alertCategoryToggled', category })}
          />
        ))}
        <div>
          <label htmlFor={wordsId} className="block text-sm font-medium text-slate-900">
            {alertCategoryLabel(CUSTOM_ALERT_CATEGORY)}
          </label>
          <p id={hintId} className="text-sm text-slate-500">
            {alertCategoryHint(CUSTOM_ALERT_CATEGORY)} Letter case and accents do not matter.
          </p>
          <textarea
            id={wordsId}
            rows={3}
            value={draft.alertWords}
            aria-describedby={hintId}
            aria-invalid={errors.alertWords !== undefined}
            onChange={(event) => dispatch({ type: 'alertWordsChanged', text: event.target.value })}
            className="mt-2 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
          />
          {errors.alertWords && <p className="mt-1 text-sm text-red-700">{errors.alertWords}</p>}
        </div>
      </div>
    </Section>
  );
}

export function DowntimeSection({ state, dispatch }: Omit<SectionProps, 'errors'>) {
  const { downtime } = state.draft;
  const wrapsMidnight =
    downtime !== undefined &&
    downtime.end.hour * 60 + downtime.end.minute <=
      downtime.start.hour * 60 + downtime.start.minute;
  return (
    <Section title="Downtime">
      <Toggle
        label="Downtime"
        description="Block all internet access every day between these times."
        isOn={downtime !== undefined}
        onChange={() => dispatch({ type: 'downtimeToggled' })}
      />
      {downtime && (
        <div className="mt-4">
          <div className="grid grid-cols-2 gap-3 sm:max-w-sm">
            <TimeInput
              label="Start time"
              value={downtime.start}
              onChange={(start) =>
                dispatch({ type: 'downtimeWindowChanged', window: { ...downtime, start } })
              }
            />
            <TimeInput
              label="End time"
              value={downtime.end}
              onChange={(end) =>
                dispatch({ type: 'downtimeWindowChanged', window: { ...downtime, end } })
              }
            />
          </div>
          {wrapsMidnight && <p className="mt-1 text-xs text-slate-500">Ends the next morning.</p>}
        </div>
      )}
    </Section>
  );
}

export function BlockedAppsSection({ state, errors, dispatch }: SectionProps) {
  const { blockedApps } = state.draft;
  function add(event: FormEvent) {
    event.preventDefault();
    if (canAddBlockedApp(state)) dispatch({ type: 'blockedAppAdded', id: newId() });
  }
  return (
    <Section
      title="Blocked apps"
      description="Apps that never run on your child's computers, always or on a schedule."
    >
      {blockedApps.length === 0 ? (
        <p className="text-sm text-slate-500">No blocked apps.</p>
      ) : (
        <ul className="space-y-3">
          {blockedApps.map((app) => (
            <li key={app.id} className="rounded-xl ring-1 ring-slate-200">
              <div className="flex flex-wrap items-center gap-2 p-3">
                <span className="min-w-0 basis-full font-mono text-sm break-all text-slate-900 sm:flex-1 sm:basis-auto">
                  {app.identifier}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  className="ml-auto"
                  onClick={() =>
                    dispatch({
                      type: app.schedule ? 'blockedAppScheduleRemoved' : 'blockedAppScheduleAdded',
                      id: app.id,
                    })
                  }
                >
                  {app.schedule ? 'Remove schedule' : 'Add schedule'}
                </Button>
                <button
                  type="button"
                  onClick={() => dispatch({ type: 'blockedAppRemoved', id: app.id })}
                  aria-label={`Remove ${app.identifier}`}
                  title="Remove"
                  className="rounded-lg p-1.5 text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-violet-500"
                >
                  <TrashIcon className="h-5 w-5" aria-hidden="true" />
                </button>
              </div>
              {app.schedule && (
                <div className="px-2 pb-2 sm:px-3 sm:pb-3">
                  <ScheduleEditor
                    schedule={app.schedule}
                    activeLabel="Blocked during these times"
                    inactiveLabel="Blocked except during these times"
                    onModeChange={(mode) =>
                      dispatch({ type: 'blockedAppScheduleModeChanged', id: app.id, mode })
                    }
                    onDayToggle={(day) =>
                      dispatch({ type: 'blockedAppScheduleDayToggled', id: app.id, day })
                    }
                    onWindowChange={(window) =>
                      dispatch({ type: 'blockedAppScheduleWindowChanged', id: app.id, window })
                    }
                  />
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {errors.blockedApps && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {errors.blockedApps}
        </p>
      )}
      <form onSubmit={add} className="mt-4 flex items-start gap-3">
        <TextInput
          label="App to block"
          hideLabel
          placeholder="App name or bundle id"
          value={state.newBlockedApp}
          error={state.newBlockedAppError}
          onChange={(identifier) => dispatch({ type: 'newBlockedAppChanged', identifier })}
          className="min-w-0 flex-1"
          autoComplete="off"
        />
        <Button type="submit" variant="secondary" disabled={!canAddBlockedApp(state)}>
          Add
        </Button>
      </form>
    </Section>
  );
}
