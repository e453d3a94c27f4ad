import type { PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import { validateScheduleWindow, WEEKDAYS, type Weekday } from '@keyward/domain/schedule';
import { useId } from 'react';
import { cx } from './cx';
import { TimeInput } from './TimeInput';

type ScheduleEditorProps = {
  schedule: RuleSchedule;
  onModeChange: (mode: RuleSchedule['mode']) => void;
  onDayToggle: (day: Weekday) => void;
  onWindowChange: (window: PlainTimeWindow) => void;
  /** What the schedule switches on and off, e.g. 'Blocked'. */
  activeLabel?: string;
  inactiveLabel?: string;
};

const dayShortNames: Record<Weekday, string> = {
  sunday: 'Sun',
  monday: 'Mon',
  tuesday: 'Tue',
  wednesday: 'Wed',
  thursday: 'Thu',
  friday: 'Fri',
  saturday: 'Sat',
};

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Mode, days (the last selected day cannot be unchecked) and a window that must end after it starts. */
export function ScheduleEditor({
  schedule,
  onModeChange,
  onDayToggle,
  onWindowChange,
  activeLabel = 'Active during these times',
  inactiveLabel = 'Inactive during these times',
}: ScheduleEditorProps) {
  const name = useId();
  const windowError = validateScheduleWindow(schedule.window);
  const numSelectedDays = WEEKDAYS.filter((day) => schedule.days[day]).length;
  return (
    <div className="space-y-4 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:p-4">
      <fieldset>
        <legend className="sr-only">Schedule mode</legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
          {(['active', 'inactive'] as const).map((mode) => (
            <label key={mode} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={name}
                value={mode}
                checked={schedule.mode === mode}
                onChange={() => onModeChange(mode)}
                className="h-4 w-4 accent-violet-600"
              />
              {mode === 'active' ? activeLabel : inactiveLabel}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-700">Days</legend>
        <div className="flex flex-wrap gap-2">
          {WEEKDAYS.map((day) => {
            const isChecked = schedule.days[day];
            const isLastDay = isChecked && numSelectedDays === 1;
            return (
              <label
                key={day}
                title={isLastDay ? 'At least one day must stay selected' : undefined}
                className={cx(
                  'flex cursor-pointer items-center rounded-lg px-3 py-1.5 text-sm font-medium ring-1 ring-inset select-none',
                  'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-violet-500',
                  isChecked
                    ? 'bg-violet-600 text-white ring-violet-600'
                    : 'bg-white text-slate-700 ring-slate-300',
                )}
              >
                <input
                  type="checkbox"
                  className="sr-only"
                  checked={isChecked}
                  aria-label={capitalise(day)}
                  aria-disabled={isLastDay || undefined}
                  onChange={() => onDayToggle(day)}
                />
                <span aria-hidden="true">{dayShortNames[day]}</span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <div>
        <div className="grid grid-cols-2 gap-2 sm:max-w-sm sm:gap-3">
          <TimeInput
            label="Start time"
            value={schedule.window.start}
            onChange={(start) => onWindowChange({ ...schedule.window, start })}
          />
          <TimeInput
            label="End time"
            value={schedule.window.end}
            isInvalid={windowError !== null}
            onChange={(end) => onWindowChange({ ...schedule.window, end })}
          />
        </div>
        {windowError && (
          <p role="alert" className="mt-1 text-xs text-red-600">
            {windowError}
          </p>
        )}
      </div>
    </div>
  );
}
