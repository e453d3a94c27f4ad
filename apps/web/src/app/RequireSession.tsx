import { Navigate, Outlet, useLocation } from 'react-router';
import { logoutPath } from '../lib/errors';
import { useSession } from '../lib/session-context';

/** Authenticated routes: without a session, go through /logout and come back after login. */
export function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  if (!session) return <Navigate to={logoutPath(location.pathname, location.search)} replace />;
  return <Outlet />;
}
