import { adoptedCallsSettled } from '../lib/api/early-fetch';
import { atMost } from '../lib/at-most';
import { pageRenderFor } from '../lib/page-render';
import { getSession } from '../lib/session';
import { prepareFirstScreen } from './routes';

/**
 * How long the first render waits for the first reads once the route's code has arrived. They
 * leave with the HTML (build/first-screen-preload.ts), so they are usually in before the code; a
 * slow answer shows the layout and the page's spinners after this at most.
 */
export const FIRST_READS_WAIT_MS = 500;

/**
 * How long the first render waits for the route's chunks. A chunk that fails is retried by its
 * page (lib/lazy-page.ts), which then says so; one that stalls must not keep the whole app on
 * "Loading Keyward…": after this the app renders, with a spinner where that page will be.
 */
export const FIRST_CHUNKS_WAIT_MS = 8_000;

/**
 * Imported first by main.tsx: the first route's chunks and reads start before React renders, and
 * React renders once they are in (issue 21). The first render is then the page with its data, not
 * a spinner per nested page and per read, each costing a render, a commit and React's minimum
 * time on screen for a fallback on a slow phone; meanwhile index.html's "Loading Keyward…" shows.
 */
/**
 * Issue 30: the render the server made of this signed-in page, with its first reads, when #root
 * holds it (then main.tsx hydrates it, and the reads are not asked again).
 */
export const pageRender = pageRenderFor(document, window.location, getSession());

export const firstScreenReady: Promise<void> = atMost(
  FIRST_CHUNKS_WAIT_MS,
  prepareFirstScreen(window.location.pathname, { withReads: pageRender === null }),
).then(() => adoptedCallsSettled(FIRST_READS_WAIT_MS));
