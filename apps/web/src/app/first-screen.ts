import { adoptedCallsSettled } from '../lib/api/early-fetch';
import { prepareFirstScreen } from './routes';

/**
 * How long the first render waits for the first reads once the route's code has arrived. They
 * leave with the HTML (build/first-screen-preload.ts), so they are usually in before the code; a
 * slow answer shows the layout and the page's spinners after this at most.
 */
export const FIRST_READS_WAIT_MS = 500;

/**
 * Imported first by main.tsx: the first route's chunks and reads start before React renders, and
 * React renders once they are in (issue 21). The first render is then the page with its data, not
 * a spinner per nested page and per read, each costing a render, a commit and React's minimum
 * time on screen for a fallback on a slow phone; meanwhile index.html's "Loading Keyward…" shows.
 */
export const firstScreenReady: Promise<void> = prepareFirstScreen(window.location.pathname).then(
  () => adoptedCallsSettled(FIRST_READS_WAIT_MS),
);
