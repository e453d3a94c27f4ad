import { type ReactNode, Suspense } from 'react';
import { useLocation } from 'react-router';
import { Spinner } from '../components/ui/Spinner';
import { RouteErrorBoundary } from './RouteErrorBoundary';

/** Every route element: a spinner while its chunk loads, a Reload message if it fails. */
export function PageSuspense({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense
        fallback={
          <div className="flex min-h-64 items-center justify-center p-8">
            <Spinner className="h-8 w-8" label="Loading..." />
          </div>
        }
      >
        {children}
      </Suspense>
    </RouteErrorBoundary>
  );
}
