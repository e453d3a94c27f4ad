import type { UserActivityItem } from '@keyward/contract/shared';
import { XMarkIcon } from '@heroicons/react/24/outline';
import { useRef } from 'react';
import { useFocusTrap } from '../../lib/focus-trap';
import { itemTimeLabel } from './activity-dates';
import { imageCrossOrigin } from '../../lib/image-cross-origin';

type Screenshot = Extract<UserActivityItem, { case: 'screenshot' }>;

/** The full screenshot over the page; Escape, the close button or a click outside close it. */
export function ScreenshotViewer({
  screenshot,
  onClose,
}: {
  screenshot: Screenshot | null;
  onClose: () => void;
}) {
  const panel = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  useFocusTrap(panel, {
    isOpen: screenshot !== null,
    onEscape: onClose,
    initialFocus: closeButton,
  });
  if (!screenshot) return null;
  const time = itemTimeLabel(screenshot.createdAt);
  return (
    <div
      ref={panel}
      role="dialog"
      aria-modal="true"
      aria-label={`Screenshot taken ${time}`}
      tabIndex={-1}
      className="fixed inset-0 z-50 flex flex-col bg-slate-950/90 p-4 focus:outline-none sm:p-8"
    >
      <div className="absolute inset-0" aria-hidden="true" onClick={onClose} />
      <div className="relative mb-3 flex items-center justify-between gap-4 text-white">
        <p className="text-sm font-medium">{time}</p>
        <div className="flex items-center gap-2">
          <a
            href={screenshot.url}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-lg px-3 py-1.5 text-sm font-semibold text-white ring-1 ring-white/40 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
          >
            Open in new tab
          </a>
          <button
            ref={closeButton}
            type="button"
            onClick={onClose}
            aria-label="Close screenshot"
            className="rounded-full p-2 text-white hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-white"
          >
            <XMarkIcon className="h-6 w-6" aria-hidden="true" />
          </button>
        </div>
      </div>
      <div className="pointer-events-none relative flex min-h-0 flex-1 items-center justify-center">
        <img
          src={screenshot.url}
          crossOrigin={imageCrossOrigin(screenshot.url)}
          alt={`Screenshot taken ${time}`}
          width={screenshot.width}
          height={screenshot.height}
          className="pointer-events-auto max-h-full max-w-full rounded-lg object-contain shadow-2xl"
          style={{ aspectRatio: `${screenshot.width} / ${screenshot.height}` }}
        />
      </div>
    </div>
  );
}
