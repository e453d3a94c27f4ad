// Whether the browser says it has no network. In the entry (the error messages of /login use it),
// so it must not import react-query: that would make react-query part of every first load (issue
// 21). Once the signed-in app has loaded, react-query's onlineManager (which tests and the browser's
// offline event drive) is asked too (lib/api/query-client.ts registers it).

let queryLibraryOnline: (() => boolean) | undefined;

/** Registers react-query's onlineManager as a source. */
export function alsoAskOnlineManager(isOnline: () => boolean): void {
  queryLibraryOnline = isOnline;
}

/** navigator.onLine, or react-query's onlineManager once registered, says offline. */
export function isBrowserOffline(): boolean {
  if (queryLibraryOnline && !queryLibraryOnline()) return true;
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}
