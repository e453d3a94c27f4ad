import type { PlainTime } from '@keyward/contract/shared';
import { clampTime } from '@keyward/domain/schedule';
import { useId } from 'react';
import { cx } from './cx';

const pad = (n: number) => String(n).padStart(2, '0');

export function toTimeValue(time: PlainTime): string {
  return `${pad(time.hour)}:${pad(time.minute)}`;
}

/** 'HH:MM' from an <input type="time">; null while the field is incomplete. */
export function fromTimeValue(value: string): PlainTime | null {
  const match = /^(\d{1,2}):(\d{2})/.exec(value);
  if (!match) return null;
  return clampTime({ hour: Number(match[1]), minute: Number(match[2]) });
}

type TimeInputProps = {
  label: string;
  value: PlainTime;
  onChange: (time: PlainTime) => void;
  className?: string;
  isInvalid?: boolean;
};

export function TimeInput({
  label,
  value,
  onChange,
  className,
  isInvalid = false,
}: TimeInputProps) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="time"
        value={toTimeValue(value)}
        onChange={(event) => {
          const time = fromTimeValue(event.target.value);
          if (time) onChange(time);
        }}
        aria-invalid={isInvalid || undefined}
        className={cx(
          'block w-full min-w-0 rounded-lg border bg-white px-2 py-2 text-slate-900 shadow-sm sm:px-3',
          'focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none',
          isInvalid ? 'border-red-400' : 'border-slate-300',
        )}
      />
    </div>
  );
}
