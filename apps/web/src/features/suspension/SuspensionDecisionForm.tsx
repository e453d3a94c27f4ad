import type { SuspendFilterRequest } from '@keyward/contract/shared';
import {
  isValidCustomMinutes,
  SUSPENSION_DURATIONS_SECONDS,
  type SuspensionDurationChoice,
  suspensionDurationLabel,
} from '@keyward/domain/suspension-grant';
import { ClockIcon } from '@heroicons/react/24/outline';
import { useId, useReducer } from 'react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/Button';
import { TextInput } from '../../components/ui/TextInput';
import { errorMessage, toPqlError } from '../../lib/errors';
import { useDecideFilterSuspension } from './api';
import {
  canDecide,
  canGrant,
  initialSuspensionDecision,
  rememberExtraMonitoring,
  rememberedExtraMonitoring,
  type SuspensionDecisionState,
  suspensionDecisionReducer,
  toDecideInput,
} from './suspension-decision';

/** What the decision needs of a request: the suspension page's and the inbox's items both have it. */
export type DecidableSuspensionRequest = Pick<
  SuspendFilterRequest,
  'id' | 'userName' | 'extraMonitoringOptions'
> &
  Partial<Pick<SuspendFilterRequest, 'requestedDurationInSeconds'>>;

const CUSTOM = 'custom';

/**
 * Grant (a duration of the spec, extra monitoring where offered) or deny (with an optional comment)
 * a pending suspension request. Used on the suspension page and inline in the inbox (issue 20).
 */
export function SuspensionDecisionForm({
  request,
  childId,
  onDecided,
}: {
  request: DecidableSuspensionRequest;
  childId: string;
  /** after the server accepted the decision */
  onDecided?: () => void;
}) {
  const options = request.extraMonitoringOptions;
  const [state, dispatch] = useReducer(suspensionDecisionReducer, undefined, () =>
    initialSuspensionDecision(
      options,
      rememberedExtraMonitoring(childId),
      request.requestedDurationInSeconds,
    ),
  );
  const decide = useDecideFilterSuspension();
  const durationId = useId();
  const commentId = useId();
  const monitoringName = useId();

  async function submit(next: SuspensionDecisionState) {
    try {
      await decide.mutateAsync(toDecideInput(request.id, next));
      dispatch({ type: 'decisionSucceeded' });
      onDecided?.();
      toast.success(
        next.phase === 'granting' ? 'Suspension request granted!' : 'Suspension request denied!',
      );
    } catch (error) {
      dispatch({ type: 'decisionFailed', message: errorMessage(toPqlError(error)) });
    }
  }

  function chooseExtraMonitoring(option: string | undefined) {
    dispatch({ type: 'extraMonitoringChosen', option });
    rememberExtraMonitoring(childId, option);
  }

  const optionEntries = Object.entries(options);
  const isCustom = state.duration === 'custom';
  return (
    <div className="mt-6 space-y-5">
      <div>
        <label htmlFor={durationId} className="mb-1 block text-sm font-medium text-slate-700">
          Suspend the filter for
        </label>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <select
            id={durationId}
            value={String(state.duration)}
            onChange={(event) => {
              const value = event.target.value;
              const duration: SuspensionDurationChoice =
                value === CUSTOM ? 'custom' : Number(value);
              dispatch({ type: 'durationChosen', duration });
            }}
            className="block rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none sm:w-56"
          >
            {SUSPENSION_DURATIONS_SECONDS.map((seconds) => (
              <option key={seconds} value={seconds}>
                {suspensionDurationLabel(seconds)}
              </option>
            ))}
            <option value={CUSTOM}>Custom...</option>
          </select>
          {isCustom && (
            <TextInput
              label="Minutes"
              value={state.customMinutes}
              onChange={(minutes) => dispatch({ type: 'customMinutesChanged', minutes })}
              inputMode="decimal"
              placeholder="45"
              error={
                state.customMinutes !== '' && !isValidCustomMinutes(state.customMinutes)
                  ? 'Enter a number of minutes greater than 1'
                  : undefined
              }
              className="sm:w-40"
            />
          )}
        </div>
      </div>

      {optionEntries.length > 0 && (
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">Extra monitoring</legend>
          <p className="mb-2 text-xs text-slate-500">
            Watch more closely while the filter is off. Remembered for {request.userName}.
          </p>
          <div className="grid gap-2 sm:grid-cols-2">
            {[['', 'No extra monitoring'] as const, ...optionEntries].map(([key, label]) => {
              const isChosen = (state.extraMonitoring ?? '') === key;
              return (
                <label
                  key={key}
                  className={`flex cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-inset ${
                    isChosen ? 'bg-violet-50 ring-violet-400' : 'bg-white ring-slate-200'
                  }`}
                >
                  <input
                    type="radio"
                    name={monitoringName}
                    checked={isChosen}
                    onChange={() => chooseExtraMonitoring(key === '' ? undefined : key)}
                    className="h-4 w-4 accent-violet-600"
                  />
                  {label}
                </label>
              );
            })}
          </div>
        </fieldset>
      )}

      <div>
        <div className="mb-1 flex items-baseline justify-between">
          <label htmlFor={commentId} className="block text-sm font-medium text-slate-700">
            Comment for {request.userName}
          </label>
          <span className="text-xs text-slate-500">*optional</span>
        </div>
        <textarea
          id={commentId}
          rows={2}
          maxLength={2000}
          value={state.comment}
          onChange={(event) => dispatch({ type: 'commentChanged', comment: event.target.value })}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none"
        />
      </div>

      {state.error && (
        <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-700">
          {state.error}
        </p>
      )}
      {state.phase === 'decided' && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <ClockIcon className="h-4 w-4" aria-hidden="true" />
          Sending your decision to {request.userName}'s device...
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button
          variant="dangerSecondary"
          isLoading={state.phase === 'denying'}
          disabled={!canDecide(state)}
          onClick={() => {
            const next = suspensionDecisionReducer(state, { type: 'denyClicked' });
            dispatch({ type: 'denyClicked' });
            void submit(next);
          }}
        >
          Deny
        </Button>
        <Button
          isLoading={state.phase === 'granting'}
          disabled={!canGrant(state)}
          onClick={() => {
            const next = suspensionDecisionReducer(state, { type: 'grantClicked' });
            dispatch({ type: 'grantClicked' });
            void submit(next);
          }}
        >
          Grant suspension
        </Button>
      </div>
    </div>
  );
}
