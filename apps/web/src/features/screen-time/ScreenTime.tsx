import type { MoreTimeInboxItem, ScreenTime, UserKeychainSummary } from '@keyward/contract/shared';
import { dayName, minutesInWords, WEEKDAYS } from '@keyward/domain/screen-time';
import { timeAgo } from '@keyward/domain/wording';
import { ClockIcon, PauseCircleIcon, PlayCircleIcon } from '@heroicons/react/24/outline';
import { useEffect, useId, useReducer, useState } from 'react';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ChildText } from '../../components/ui/ChildText';
import { Toggle } from '../../components/ui/Toggle';
import { errorMessage } from '../../lib/errors';
import {
  useDecideMoreTime,
  usePauseInternet,
  useResumeInternet,
  useSaveScreenTime,
  useScreenTime,
} from './api';
import {
  allowanceOf,
  grantChoices,
  initialScreenTimeEditor,
  isScreenTimeChanged,
  PAUSE_BUTTONS,
  pauseWords,
  screenTimeEditorReducer,
  siteBars,
  todayWords,
  weekBars,
} from './screen-time';

// Issue 34: screen time on the dashboard. The child's allowance per day of the week with the
// keychains that don't use up time (settings), "Pause internet" (the child's page and the home
// page), the week's time as a chart with the top sites (the "This week" card), and the requests
// for more time (the inbox), each decided with one click.

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The allowance editor, saved on its own (it is not part of "Save child"). */
export function ScreenTimeSection({
  childId,
  childName,
  settings,
  keychains,
}: {
  childId: string;
  childName: string;
  settings: ScreenTime;
  keychains: readonly UserKeychainSummary[];
}) {
  const [state, dispatch] = useReducer(screenTimeEditorReducer, settings, initialScreenTimeEditor);
  const save = useSaveScreenTime();
  const headingId = useId();
  const loaded = JSON.stringify({ a: settings.allowance, e: settings.exemptKeychainIds });
  // a save elsewhere (another tab, a co-parent) reloads the editor when nothing is being edited
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the saved settings change
  useEffect(() => {
    if (!isScreenTimeChanged(state)) dispatch({ type: 'loaded', settings });
  }, [loaded]);
  const result = allowanceOf(state.draft);

  async function onSave() {
    if (result.problem !== undefined) return;
    dispatch({ type: 'saveStarted' });
    try {
      await save.mutateAsync({
        childId,
        allowance: result.allowance,
        exemptKeychainIds: state.draft.exemptKeychainIds.filter((id) =>
          keychains.some((keychain) => keychain.id === id),
        ),
        // the family's days are counted in this browser's zone until it has one
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
      dispatch({ type: 'saved' });
    } catch (error) {
      dispatch({ type: 'saveFailed', message: errorMessage(error as never) });
    }
  }

  return (
    <Card>
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Screen time
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          How long {childName} may use websites each day. Time is counted by Keyward for Chrome and
          starts again at midnight ({settings.timeZone}).
        </p>
        <ul className="mt-4 divide-y divide-slate-100">
          {WEEKDAYS.map((day) => {
            const entry = state.draft.days[day];
            return (
              <li key={day} className="flex flex-wrap items-center gap-3 py-2">
                <span className="w-28 text-sm font-medium text-slate-900">{dayName(day)}</span>
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    checked={entry.isLimited}
                    onChange={() => dispatch({ type: 'limitToggled', day })}
                    className="h-4 w-4 rounded border-slate-300 text-violet-600"
                  />
                  Limit
                </label>
                {entry.isLimited ? (
                  <span className="flex items-center gap-2 text-sm text-slate-700">
                    <input
                      type="number"
                      min={0}
                      max={24}
                      inputMode="numeric"
                      aria-label={`${dayName(day)} hours`}
                      value={entry.hours}
                      onChange={(event) =>
                        dispatch({ type: 'hoursChanged', day, value: event.target.value })
                      }
                      className="w-16 rounded-lg border border-slate-300 px-2 py-1"
                    />
                    h
                    <input
                      type="number"
                      min={0}
                      max={59}
                      step={5}
                      inputMode="numeric"
                      aria-label={`${dayName(day)} minutes`}
                      value={entry.minutes}
                      onChange={(event) =>
                        dispatch({ type: 'minutesChanged', day, value: event.target.value })
                      }
                      className="w-16 rounded-lg border border-slate-300 px-2 py-1"
                    />
                    min
                  </span>
                ) : (
                  <span className="text-sm text-slate-500">No limit</span>
                )}
                {day === 'monday' && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => dispatch({ type: 'copiedToSchoolDays', from: 'monday' })}
                  >
                    Same for every school day
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
        {keychains.length > 0 && (
          <fieldset className="mt-4">
            <legend className="text-sm font-medium text-slate-900">
              Keychains that don't use up time
            </legend>
            <p className="text-sm text-slate-500">
              Their sites stay open when time is up, and time on them is not counted (school work).
            </p>
            <div className="mt-2 space-y-2">
              {keychains.map((keychain) => (
                <Toggle
                  key={keychain.id}
                  label={keychain.name}
                  isOn={state.draft.exemptKeychainIds.includes(keychain.id)}
                  onChange={() => dispatch({ type: 'exemptToggled', keychainId: keychain.id })}
                />
              ))}
            </div>
          </fieldset>
        )}
        {result.problem !== undefined && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {result.problem}
          </p>
        )}
        {state.saveError && (
          <p role="alert" className="mt-3 text-sm text-red-700">
            {state.saveError}
          </p>
        )}
        <div className="mt-4">
          <Button
            onClick={() => void onSave()}
            disabled={!isScreenTimeChanged(state) || result.problem !== undefined}
            isLoading={state.isSaving}
          >
            Save screen time
          </Button>
        </div>
      </section>
    </Card>
  );
}

/** "Pause internet": 15 minutes, an hour, or until the parent resumes; then "Resume internet". */
export function PauseInternetControl({
  childId,
  childName,
  pause,
  compact = false,
}: {
  childId: string;
  childName: string;
  pause: ScreenTime['pause'];
  compact?: boolean;
}) {
  const pauseInternet = usePauseInternet();
  const resume = useResumeInternet();
  const [isChoosing, setIsChoosing] = useState(false);
  const isBusy = pauseInternet.isPending || resume.isPending;
  if (pause) {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <span className="inline-flex items-center gap-1.5 text-sm font-medium text-amber-800">
          <PauseCircleIcon className="h-5 w-5" aria-hidden="true" />
          {compact ? `${childName}: ` : ''}
          {pauseWords(pause, timeOf)}
        </span>
        <Button
          size="sm"
          variant="secondary"
          isLoading={resume.isPending}
          onClick={() => resume.mutate({ childId })}
        >
          <PlayCircleIcon className="h-4 w-4" aria-hidden="true" />
          Resume internet
        </Button>
      </div>
    );
  }
  if (!isChoosing) {
    return (
      <Button size="sm" variant="secondary" onClick={() => setIsChoosing(true)}>
        <PauseCircleIcon className="h-4 w-4" aria-hidden="true" />
        {compact ? `Pause ${childName}'s internet` : 'Pause internet'}
      </Button>
    );
  }
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">Pause {childName}'s internet</legend>
      {PAUSE_BUTTONS.map((choice) => (
        <Button
          key={choice.label}
          size="sm"
          disabled={isBusy}
          onClick={() =>
            pauseInternet.mutate(
              { childId, minutes: choice.minutes },
              { onSettled: () => setIsChoosing(false) },
            )
          }
        >
          {choice.label}
        </Button>
      ))}
      <Button size="sm" variant="ghost" onClick={() => setIsChoosing(false)}>
        Cancel
      </Button>
    </fieldset>
  );
}

/** The child's time this week against the allowance, as bars, and the top sites by time. */
export function ScreenTimeWeek({ childId }: { childId: string }) {
  const usage = useScreenTime(childId);
  const headingId = useId();
  if (usage.isPending || usage.isError || !usage.data) return null;
  const bars = weekBars(usage.data.week);
  const sites = siteBars(usage.data.topSites);
  const isEmpty = bars.every((bar) => bar.usedMinutes === 0 && bar.allowedMinutes === null);
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="flex items-center gap-1.5 text-sm font-medium text-slate-700">
        <ClockIcon className="h-4 w-4" aria-hidden="true" />
        Screen time
      </h3>
      <p className="mt-1 text-sm text-slate-600">{todayWords(usage.data.today)}</p>
      {isEmpty ? (
        <p className="mt-1 text-sm text-slate-500">
          No screen time counted this week. Only Keyward for Chrome counts it.
        </p>
      ) : (
        <div className="mt-3 grid gap-6 sm:grid-cols-2">
          <figure>
            <ol className="flex h-32 items-end gap-2" aria-label="Screen time by day">
              {bars.map((bar) => (
                <li
                  key={bar.label}
                  className="relative flex h-full flex-1 flex-col justify-end"
                  aria-label={bar.description}
                >
                  {bar.allowedPercent !== null && (
                    <span
                      className="absolute inset-x-0 border-t-2 border-dashed border-slate-400"
                      style={{ bottom: `${bar.allowedPercent}%` }}
                      aria-hidden="true"
                    />
                  )}
                  <span
                    className={`block rounded-t ${bar.isOver ? 'bg-fuchsia-600' : 'bg-violet-500'}`}
                    style={{ height: `${Math.max(bar.usedMinutes > 0 ? 2 : 0, bar.usedPercent)}%` }}
                    aria-hidden="true"
                  />
                </li>
              ))}
            </ol>
            <div className="mt-1 flex gap-2 text-center text-xs text-slate-500" aria-hidden="true">
              {bars.map((bar) => (
                <span key={bar.label} className={`flex-1 ${bar.isToday ? 'font-semibold' : ''}`}>
                  {bar.label}
                </span>
              ))}
            </div>
            <figcaption className="mt-1 text-xs text-slate-500">
              Bars: time used. Dashed line: the day's allowance.
            </figcaption>
          </figure>
          <div className="min-w-0">
            <h4 className="text-sm font-medium text-slate-700">Top sites by time</h4>
            {sites.length === 0 ? (
              <p className="mt-1 text-sm text-slate-500">None this week.</p>
            ) : (
              <ol className="mt-1 space-y-1.5 text-sm">
                {sites.map((site) => (
                  <li key={site.site}>
                    <div className="flex justify-between gap-3">
                      <bdi className="min-w-0 truncate text-slate-900">
                        <ChildText text={site.site} />
                      </bdi>
                      <span className="shrink-0 text-slate-500">{site.words}</span>
                    </div>
                    <span
                      className="mt-0.5 block h-1.5 rounded bg-violet-400"
                      style={{ width: `${site.percent}%` }}
                      aria-hidden="true"
                    />
                  </li>
                ))}
              </ol>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

/** Requests for more time today, decided right here. */
export function MoreTimeRequests({
  requests,
  now,
  showChildNames = true,
}: {
  requests: readonly MoreTimeInboxItem[];
  now: Date;
  showChildNames?: boolean;
}) {
  const decide = useDecideMoreTime();
  const headingId = useId();
  const [decided, setDecided] = useState<Record<string, string>>({});
  // a decided request stays in sight with what was decided, after the inbox no longer lists it
  const [seen, setSeen] = useState<Record<string, MoreTimeInboxItem>>({});
  const ids = requests.map((r) => r.id).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the listed requests change
  useEffect(() => {
    if (requests.length === 0) return;
    setSeen((all) => ({ ...all, ...Object.fromEntries(requests.map((r) => [r.id, r])) }));
  }, [ids]);
  const shown = [
    ...requests,
    ...Object.values(seen).filter(
      (old) => decided[old.id] !== undefined && !requests.some((r) => r.id === old.id),
    ),
  ];
  if (shown.length === 0) return null;
  async function answer(request: MoreTimeInboxItem, minutes: number | null) {
    try {
      await decide.mutateAsync({
        id: request.id,
        decision: minutes === null ? { case: 'rejected' } : { case: 'accepted', minutes },
      });
      setDecided((all) => ({
        ...all,
        [request.id]:
          minutes === null
            ? `You said no to ${request.childName}.`
            : `You gave ${request.childName} ${minutesInWords(minutes)} more today.`,
      }));
    } catch (error) {
      setDecided((all) => ({ ...all, [request.id]: errorMessage(error as never) }));
    }
  }
  return (
    <Card>
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Asking for more time
        </h2>
        <ul className="mt-3 space-y-2">
          {shown.map((request) => (
            <li key={request.id}>
              <article
                aria-label={`${request.childName}: asks for ${request.requestedMinutes} more minutes`}
                className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200"
              >
                <p className="font-medium text-slate-900">
                  {showChildNames ? `${request.childName} asks` : 'Asks'} for{' '}
                  {minutesInWords(request.requestedMinutes)} more today
                </p>
                <p className="mt-0.5 text-xs text-slate-600">
                  <ChildText text={request.device.name} /> ·{' '}
                  <time dateTime={request.createdAt}>{timeAgo(request.createdAt, now)}</time>
                </p>
                {request.requestComment && (
                  <p className="mt-1 text-sm text-slate-700 italic">
                    <ChildText text={`“${request.requestComment}”`} />
                  </p>
                )}
                {decided[request.id] ? (
                  <p role="status" className="mt-2 text-sm text-slate-700">
                    {decided[request.id]}
                  </p>
                ) : (
                  <div className="mt-2 flex flex-wrap gap-2">
                    {grantChoices(request).map((minutes) => (
                      <Button
                        key={minutes}
                        size="sm"
                        variant={minutes === request.requestedMinutes ? 'primary' : 'secondary'}
                        disabled={decide.isPending}
                        onClick={() => void answer(request, minutes)}
                      >
                        Allow {minutesInWords(minutes)}
                      </Button>
                    ))}
                    <Button
                      size="sm"
                      variant="dangerSecondary"
                      disabled={decide.isPending}
                      onClick={() => void answer(request, null)}
                    >
                      Deny
                    </Button>
                  </div>
                )}
              </article>
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}

/** The home page's "Pause internet": each child, paused or not, with the buttons. */
export function PauseInternetCard({
  childList,
}: {
  childList: readonly { id: string; name: string; screenTime?: ScreenTime }[];
}) {
  const headingId = useId();
  if (childList.length === 0) return null;
  return (
    <Card>
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          Pause internet
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          Blocks everything on a child's Keyward for Chrome browsers and Keyward DNS devices at
          once.
        </p>
        <ul className="mt-3 divide-y divide-slate-100">
          {childList.map((child) => (
            <li key={child.id} className="flex flex-wrap items-center justify-between gap-3 py-2">
              <span className="font-medium text-slate-900">{child.name}</span>
              <PauseInternetControl
                childId={child.id}
                childName={child.name}
                pause={child.screenTime?.pause}
              />
            </li>
          ))}
        </ul>
      </section>
    </Card>
  );
}
