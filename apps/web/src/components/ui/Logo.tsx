import { cx } from './cx';

export function Logo({ className, showName = true }: { className?: string; showName?: boolean }) {
  return (
    <span className={cx('inline-flex items-center gap-2', className)}>
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden="true">
        <defs>
          <linearGradient id="keyward-logo" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#7c3aed" />
            <stop offset="1" stopColor="#c026d3" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill="url(#keyward-logo)" />
        <circle cx="12" cy="16" r="5" fill="none" stroke="#fff" strokeWidth="2.5" />
        <path d="M17 16h9m-3 0v4" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      {showName ? (
        <span className="text-xl font-bold tracking-tight text-slate-900">Keyward</span>
      ) : (
        <span className="sr-only">Keyward</span>
      )}
    </span>
  );
}
