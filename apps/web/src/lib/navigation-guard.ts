import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';

// Asks before a parent leaves a page with unsaved changes. The app renders <BrowserRouter> +
// useRoutes (the data router would push /login over its size budget), so react-router's
// useBlocker is not available. Three ways out are covered instead:
// - closing or reloading the tab: a beforeunload listener (the browser asks in its own words);
// - in-app links (sidebar, breadcrumbs, any <a href> to this origin): a capture-phase click
//   listener on the document stops the click before react-router's <Link> sees it;
// - the browser's Back button: while guarded, the page sits on a copy of its own history entry,
//   so Back lands on the same address (a popstate the router renders as the same page) and the
//   guard asks; leaving then goes back for real.
// Navigation by code (navigate() after a save or a delete) is never stopped.

export type NavigationGuard = {
  /** A way out was stopped and waits for the parent's answer. */
  isAsking: boolean;
  /** Leave after all: follow the stopped link, or go back. */
  leave: () => void;
  /** Stay on the page with the changes. */
  stay: () => void;
};

type Stopped = { type: 'link'; to: string } | { type: 'back' };

/** The history-state mark of the copy entry the guard sits on. */
const GUARD_MARK = 'keywardNavigationGuard';

/**
 * Where a click on the document would take the parent inside the app, or null when the guard
 * should let it through (not a plain left click, not a link, another window or origin, a
 * download, or the page it is already on).
 */
export function guardedLinkDestination(
  event: Pick<
    MouseEvent,
    'button' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'defaultPrevented' | 'target'
  >,
  current: { origin: string; pathname: string; search: string; hash: string },
): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const target = event.target;
  if (!(target instanceof Element)) return null;
  const anchor = target.closest('a[href]');
  if (!(anchor instanceof HTMLAnchorElement)) return null;
  if (anchor.hasAttribute('download')) return null;
  if (anchor.target && anchor.target !== '_self') return null;
  const url = new URL(anchor.href, `${current.origin}${current.pathname}`);
  if (url.origin !== current.origin) return null;
  const to = `${url.pathname}${url.search}${url.hash}`;
  if (to === `${current.pathname}${current.search}${current.hash}`) return null;
  return to;
}

function isOnGuardEntry(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && GUARD_MARK in state;
}

/** While `when` is true, leaving the page asks first (see above). */
export function useNavigationGuard(when: boolean): NavigationGuard {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  here.current = location;
  const [stopped, setStopped] = useState<Stopped | null>(null);
  /** Set once the parent chose to leave: nothing is stopped or asked any more. */
  const isLeaving = useRef(false);

  // Closing or reloading the tab.
  useEffect(() => {
    if (!when) return;
    function onBeforeUnload(event: BeforeUnloadEvent) {
      if (isLeaving.current) return;
      event.preventDefault();
      // Older browsers need a returnValue to show their dialog.
      event.returnValue = '';
    }
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  // In-app links.
  useEffect(() => {
    if (!when) return;
    function onClick(event: MouseEvent) {
      const { pathname, search, hash } = here.current;
      const to = guardedLinkDestination(event, {
        origin: window.location.origin,
        pathname,
        search,
        hash,
      });
      if (to === null || isLeaving.current) return;
      event.preventDefault();
      event.stopPropagation();
      setStopped({ type: 'link', to });
    }
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [when]);

  // The Back button.
  useEffect(() => {
    if (!when) return;
    const address = window.location.href;
    if (!isOnGuardEntry()) {
      window.history.pushState({ ...window.history.state, [GUARD_MARK]: true }, '', address);
    }
    function onPopState() {
      if (isLeaving.current) return;
      // Back from the copy lands on the page's own entry: same address, no mark.
      if (window.location.href === address && !isOnGuardEntry()) setStopped({ type: 'back' });
    }
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [when]);

  const leave = useCallback(() => {
    if (!stopped) return;
    isLeaving.current = true;
    setStopped(null);
    if (stopped.type === 'link') {
      // The next page takes the place of the guard's copy entry, so Back returns here only once.
      navigate(stopped.to, { replace: isOnGuardEntry() });
      // The same page may stay mounted (another child's page): guard its next changes again.
      setTimeout(() => {
        isLeaving.current = false;
      }, 0);
    } else {
      window.history.back();
    }
  }, [stopped, navigate]);

  const stay = useCallback(() => {
    if (stopped?.type === 'back' && !isOnGuardEntry()) {
      // Sit on a fresh copy again, so the next Back asks too.
      window.history.pushState(
        { ...window.history.state, [GUARD_MARK]: true },
        '',
        window.location.href,
      );
    }
    setStopped(null);
  }, [stopped]);

  // Saved (or undone) while asking: nothing to ask about any more.
  useEffect(() => {
    if (!when) setStopped(null);
  }, [when]);

  return { isAsking: stopped !== null, leave, stay };
}
