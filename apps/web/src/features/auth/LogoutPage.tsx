import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { FullPageStatus } from '../../components/ui/FullPageStatus';
import { callDashboard } from '../../lib/api/client';
import { queryClient } from '../../lib/api/query-client';
import { runOnce } from '../../lib/one-shot';
import { getSession } from '../../lib/session';
import { useSession } from '../../lib/session-context';

/** Revokes the token best-effort, forgets the session, and goes to /login keeping the query. */
export default function LogoutPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { logOut } = useSession();

  useEffect(() => {
    let isActive = true;
    const token = getSession()?.token;
    const revoke = token
      ? runOnce(`Logout:${token}`, () => callDashboard('Logout', undefined))
      : Promise.resolve();
    revoke.finally(() => {
      if (!isActive) return;
      logOut();
      queryClient.clear();
      navigate(`/login${search}`, { replace: true });
    });
    return () => {
      isActive = false;
    };
  }, [logOut, navigate, search]);

  return <FullPageStatus isStandalone status="loading" title="Logging out..." />;
}
