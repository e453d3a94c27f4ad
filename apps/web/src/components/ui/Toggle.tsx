import { useId } from 'react';
import { cx } from './cx';

type ToggleProps = {
  label: string;
  isOn: boolean;
  onChange: (isOn: boolean) => void;
  description?: string;
  isDisabled?: boolean;
};

export function Toggle({ label, isOn, onChange, description, isDisabled = false }: ToggleProps) {
  const labelId = useId();
  const descriptionId = useId();
  return (
    <div className="flex items-center justify-between gap-4">
      <div>
        <span id={labelId} className="text-sm font-medium text-slate-900">
          {label}
        </span>
        {description && (
          <p id={descriptionId} className="text-sm text-slate-500">
            {description}
          </p>
        )}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={isOn}
        aria-labelledby={labelId}
        aria-describedby={description ? descriptionId : undefined}
        disabled={isDisabled}
        onClick={() => onChange(!isOn)}
        className={cx(
          'relative inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full transition-colors',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-500',
          'disabled:cursor-not-allowed disabled:opacity-50',
          isOn ? 'bg-violet-600' : 'bg-slate-300',
        )}
      >
        <span
          aria-hidden="true"
          className={cx(
            'mt-0.5 inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
            isOn ? 'translate-x-5.5' : 'translate-x-0.5',
          )}
        />
      </button>
    </div>
  );
}
