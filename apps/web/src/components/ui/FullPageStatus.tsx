import { CheckCircleIcon, ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import type { ReactNode } from 'react';
import { externalLinks } from '../../lib/links';
import { Spinner } from './Spinner';

type FullPageStatusProps = (
  | { status: 'loading'; title?: string; children?: ReactNode }
  | { status: 'success'; title: string; children?: ReactNode }
  | { status: 'failure'; title?: string; message: string; children?: ReactNode }
) & {
  /** A page of its own (public routes, outside the chrome): the card is the page's <main>. */
  isStandalone?: boolean;
};

/** A centred status card for whole-page states (one-shot links, checkout results, ...). */
export function FullPageStatus(props: FullPageStatusProps) {
  const Landmark = props.isStandalone ? 'main' : 'div';
  return (
    <Landmark className="flex min-h-full items-center justify-center p-4">
      <div className="w-full max-w-md rounded-2xl bg-white p-8 text-center shadow-lg ring-1 ring-slate-200">
        {props.status === 'loading' && (
          <>
            <Spinner className="h-10 w-10" />
            <h1 className="mt-4 text-lg font-semibold text-slate-900" role="status">
              {props.title ?? 'Loading...'}
            </h1>
          </>
        )}
        {props.status === 'success' && (
          <>
            <CheckCircleIcon className="mx-auto h-12 w-12 text-violet-600" aria-hidden="true" />
            <h1 className="mt-4 text-lg font-semibold text-slate-900">{props.title}</h1>
          </>
        )}
        {props.status === 'failure' && (
          <>
            <ExclamationTriangleIcon
              className="mx-auto h-12 w-12 text-fuchsia-600"
              aria-hidden="true"
            />
            <h1 className="mt-4 text-lg font-semibold text-slate-900">{props.title ?? 'Uh-oh!'}</h1>
            <p role="alert" className="mt-2 text-sm text-slate-600">
              {props.message}
            </p>
          </>
        )}
        {props.children && <div className="mt-6 text-sm text-slate-600">{props.children}</div>}
        {props.status === 'failure' && (
          <a
            href={externalLinks.contactSupport}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-6 inline-block text-sm font-semibold text-violet-700 hover:underline"
          >
            Contact support
          </a>
        )}
      </div>
    </Landmark>
  );
}
