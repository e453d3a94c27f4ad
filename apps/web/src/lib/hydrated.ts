import { useSyncExternalStore } from 'react';

const noChanges = () => () => undefined;

/**
 * False in HTML rendered ahead of the browser (the prerendered public pages, the signed-in home
 * page rendered by the server: issue 30) and in the render that hydrates it; true from then on, and
 * in every render React makes in the browser. A form in that HTML can be seen before its script
 * runs, but not used: its submit buttons and fields wait for React (a submit before it would be
 * the browser's own, a GET with the password in the address).
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(noChanges, isInBrowser, isNotYet);
}

function isInBrowser(): boolean {
  return true;
}

function isNotYet(): boolean {
  return false;
}
