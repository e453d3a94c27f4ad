import { useIsHydrated } from '../../lib/hydrated';
import { type ChangeEvent, type InputHTMLAttributes, type Ref, useId } from 'react';
import { cx } from './cx';

export type TextInputType =
  | 'text'
  | 'email'
  | 'password'
  | 'url'
  | 'positiveInteger'
  | 'date'
  | 'tel';

type TextInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange' | 'value'> & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: TextInputType;
  isOptional?: boolean;
  hint?: string;
  error?: string;
  hideLabel?: boolean;
  /** The <input> itself, e.g. to focus it. */
  ref?: Ref<HTMLInputElement>;
};

/** A 'positiveInteger' field accepts only digit strings; other input is ignored. */
export function acceptsPositiveIntegerInput(value: string): boolean {
  return /^\d*$/.test(value);
}

export function TextInput({
  label,
  value,
  onChange,
  type = 'text',
  isOptional = false,
  hint,
  error,
  hideLabel = false,
  className,
  id,
  ...rest
}: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  // issue 30: in HTML rendered ahead of the browser, typing waits for React (what was typed before
  // would be on screen but not in the form's state)
  const isHydrated = useIsHydrated();
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const isUrl = type === 'url';
  const isPositiveInteger = type === 'positiveInteger';

  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const next = input.value;
    if (isPositiveInteger && !acceptsPositiveIntegerInput(next)) {
      // Refused: the field goes back to what the state holds, with the caret where the parent was
      // typing (React would put the value back too, but with the caret at the end).
      const caret = (input.selectionStart ?? next.length) - (next.length - value.length);
      input.value = value;
      input.setSelectionRange(caret, caret);
      return;
    }
    onChange(next);
  }

  const describedBy = cx(hint && hintId, error && errorId) || undefined;

  return (
    <div className={className}>
      <div className={cx('mb-1 flex items-baseline justify-between', hideLabel && 'sr-only')}>
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        {isOptional && <span className="text-xs text-slate-500">*optional</span>}
      </div>
      <input
        id={inputId}
        type={isPositiveInteger ? 'text' : type}
        inputMode={isPositiveInteger ? 'numeric' : undefined}
        pattern={isPositiveInteger ? '[0-9]*' : undefined}
        autoCapitalize={isUrl ? 'off' : undefined}
        autoCorrect={isUrl ? 'off' : undefined}
        spellCheck={isUrl ? false : undefined}
        value={value}
        onChange={handleChange}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cx(
          'block w-full rounded-lg border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400',
          'focus:border-violet-500 focus:ring-2 focus:ring-violet-500/30 focus:outline-none',
          error ? 'border-red-400' : 'border-slate-300',
        )}
        {...rest}
        readOnly={rest.readOnly || !isHydrated}
      />
      {hint && !error && (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-xs text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}
