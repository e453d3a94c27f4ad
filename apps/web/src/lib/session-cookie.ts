import { SESSION_COOKIE_PATH } from '@keyward/contract/page-render';
import { apiEndpoint } from './api/client';
import { type AdminSession, getSession, subscribeToSession } from './session';

// Issue 30: beside the token in the browser's storage, the server keeps an HttpOnly cookie with the
// same session, which it reads only to render the signed-in home page with its first reads
// (apps/server/src/http/signed-in-page.ts). This keeps the cookie in step with the session: set
// at sign-in (and once on a signed-in visit the server did not render, for a session from before
// the cookie or one whose cookie was cleared), cleared at sign-out. Only when the dashboard is
// served by its own API server (no VITE_API_ENDPOINT): another origin's cookie renders nothing.

function timeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function syncSessionCookie(session: AdminSession | null): void {
  if (apiEndpoint() !== '') return;
  const request = session
    ? fetch(SESSION_COOKIE_PATH, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-AdminToken': session.token },
        body: JSON.stringify({ timeZone: timeZone() }),
      })
    : fetch(SESSION_COOKIE_PATH, { method: 'DELETE' });
  // best effort: without the cookie, the page is rendered by the browser, as before
  request.catch(() => undefined);
}

/** From now on, every sign-in and sign-out; `isRendered`: the server rendered this page already. */
export function keepSessionCookie({ isRendered }: { isRendered: boolean }): void {
  let last = getSession();
  if (last && !isRendered) syncSessionCookie(last);
  subscribeToSession(() => {
    const session = getSession();
    if (session?.token === last?.token) return;
    last = session;
    syncSessionCookie(session);
  });
}
