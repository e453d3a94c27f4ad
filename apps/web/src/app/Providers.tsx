import type { ReactNode } from 'react';
import type { AdminSession } from '../lib/session';
import { SessionProvider } from '../lib/session-context';

/** App-wide providers. Data (react-query) and toasts live in DataProviders, loaded lazily. */
export function Providers({
  children,
  serverSession,
}: {
  children: ReactNode;
  serverSession?: AdminSession;
}) {
  return <SessionProvider serverSession={serverSession}>{children}</SessionProvider>;
}
