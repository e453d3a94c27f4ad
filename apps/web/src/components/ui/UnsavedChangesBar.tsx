import type { ReactNode } from 'react';
import { Button } from './Button';
import { cx } from './cx';

type UnsavedChangesBarProps = {
  isChanged: boolean;
  saveLabel: string;
  canSave: boolean;
  isSaving: boolean;
  saveError?: string;
  onSave: () => void;
  onCancel: () => void;
  /** Shown at the start of the row while nothing changed (e.g. a Delete button). */
  start?: ReactNode;
  className?: string;
};

/**
 * The Save row under a long form. Once something changed it becomes a bar that sticks to the
 * bottom of the window, says so, and offers Cancel beside Save, so the actions stay in reach
 * wherever the parent scrolled. The Save button stays the same element throughout.
 */
export function UnsavedChangesBar({
  isChanged,
  saveLabel,
  canSave,
  isSaving,
  saveError,
  onSave,
  onCancel,
  start,
  className,
}: UnsavedChangesBarProps) {
  return (
    <section
      aria-label={isChanged ? 'Unsaved changes' : undefined}
      className={cx(
        isChanged
          ? 'sticky bottom-3 z-20 rounded-2xl bg-white px-4 py-3 shadow-lg ring-1 ring-violet-200 sm:bottom-4'
          : 'border-t border-slate-200 pt-6',
        className,
      )}
    >
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-between">
        {isChanged ? (
          <p className="text-sm font-medium text-slate-900">
            <span
              className="mr-2 inline-block h-2 w-2 rounded-full bg-amber-500 align-middle"
              aria-hidden="true"
            />
            You have unsaved changes
          </p>
        ) : (
          <div>{start}</div>
        )}
        <div className="flex flex-wrap justify-end gap-3">
          {isChanged && (
            <Button variant="secondary" onClick={onCancel} disabled={isSaving}>
              Cancel
            </Button>
          )}
          <Button onClick={onSave} disabled={!canSave} isLoading={isSaving}>
            {saveLabel}
          </Button>
        </div>
      </div>
      {saveError && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {saveError}
        </p>
      )}
    </section>
  );
}
