import { type ReactNode, Suspense } from 'react';
import { Spinner } from '../components/ui/Spinner';

export function PageSuspense({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="flex min-h-64 items-center justify-center p-8">
          <Spinner className="h-8 w-8" label="Loading..." />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}
