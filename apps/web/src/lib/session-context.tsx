import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import { type AdminSession, getSession, logIn, logOut, subscribeToSession } from './session';

type SessionContextValue = {
  session: AdminSession | null;
  logIn: (session: AdminSession) => void;
  logOut: () => void;
};

const SessionContext = createContext<SessionContextValue | null>(null);

export function SessionProvider({
  children,
  serverSession,
}: {
  children: ReactNode;
  /** The session of a page rendered on the server (src/entry-server.tsx, issue 30). */
  serverSession?: AdminSession;
}) {
  const session = useSyncExternalStore(
    subscribeToSession,
    getSession,
    serverSession ? () => serverSession : getSession,
  );
  const value = useMemo(() => ({ session, logIn, logOut }), [session]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside <SessionProvider>');
  return value;
}
