import type { ReactNode } from 'react';
import { SessionProvider } from '../lib/session-context';

/** App-wide providers. Data (react-query) and toasts live in DataProviders, loaded lazily. */
export function Providers({ children }: { children: ReactNode }) {
  return <SessionProvider>{children}</SessionProvider>;
}
