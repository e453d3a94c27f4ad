import type { ReactNode } from 'react';

/** One labelled row of a `<dl>` on a request page: label beside the value on wide screens. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-3 sm:flex-row sm:gap-4">
      <dt className="w-40 shrink-0 text-sm font-medium text-slate-500">{label}</dt>
      <dd className="min-w-0 text-sm wrap-anywhere text-slate-900">{children}</dd>
    </div>
  );
}
