import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';

/** Spec §8: a keychain list or request that failed to load. */
export function SomethingWentWrong() {
  return (
    <div role="alert" className="rounded-2xl bg-white px-6 py-12 text-center ring-1 ring-slate-200">
      <ExclamationTriangleIcon className="mx-auto h-10 w-10 text-fuchsia-600" aria-hidden="true" />
      <h2 className="mt-3 text-base font-semibold text-slate-900">Hmm, something went wrong</h2>
      <p className="mt-1 text-sm text-slate-500">Try refreshing the page and trying again</p>
    </div>
  );
}
