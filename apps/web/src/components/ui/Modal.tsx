import { type ReactNode, useId, useRef } from 'react';
import { useFocusTrap } from '../../lib/focus-trap';
import { cx } from './cx';

type ModalProps = {
  isOpen: boolean;
  title: string;
  onClose?: () => void;
  children: ReactNode;
  icon?: ReactNode;
  actions?: ReactNode;
  /** The panel's maximum width. Not via className: a second max-w-* class does not reliably win. */
  size?: ModalSize;
  className?: string;
};

export type ModalSize = 'sm' | 'md' | 'lg';

const widths: Record<ModalSize, string> = { sm: 'max-w-xs', md: 'max-w-md', lg: 'max-w-2xl' };

/**
 * A light accessible modal: focus moves in, Tab stays inside, Escape closes, focus returns
 * (lib/focus-trap.ts).
 */
export function Modal({
  isOpen,
  title,
  onClose,
  children,
  icon,
  actions,
  size = 'md',
  className,
}: ModalProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  useFocusTrap(panel, { isOpen, onEscape: onClose });

  if (!isOpen) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-end justify-center p-4 sm:items-center">
      <div className="absolute inset-0 bg-slate-900/50" aria-hidden="true" onClick={onClose} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className={cx(
          // a dialog taller than the window scrolls inside itself (the page behind it does not)
          'relative max-h-full w-full overflow-y-auto rounded-2xl bg-white p-6 shadow-xl focus:outline-none',
          widths[size],
          className,
        )}
      >
        <div className="flex gap-4">
          {icon && <div className="shrink-0">{icon}</div>}
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            <div className="mt-2 text-sm text-slate-600">{children}</div>
          </div>
        </div>
        {actions && (
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            {actions}
          </div>
        )}
      </div>
    </div>
  );
}
