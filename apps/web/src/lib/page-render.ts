import {
  PAGE_RENDER_ELEMENT_ID,
  type PageRender,
  RENDERED_FOR_ATTRIBUTE,
} from '@keyward/contract/page-render';
import type { AdminSession } from './session';

// Issue 30: a signed-in page the server rendered with its first reads comes with what it rendered
// with (`PageRender`, in a <script type="application/json">). This module reads it once, in the
// entry (no react-query here); main.tsx hydrates with it, and query-client.ts puts its answers in
// react-query's cache before the first render, so that render is the server's.

let taken: PageRender | null | undefined;

/** The page's render when #root holds the server's HTML of this path for this session, else null. */
export function pageRenderFor(
  doc: Pick<Document, 'getElementById'>,
  location: Pick<Location, 'pathname' | 'search'>,
  session: AdminSession | null,
): PageRender | null {
  if (taken !== undefined) return taken;
  taken = null;
  const root = doc.getElementById('root');
  const data = doc.getElementById(PAGE_RENDER_ELEMENT_ID);
  if (!root || !data || !session || location.search !== '') return taken;
  if (root.getAttribute(RENDERED_FOR_ATTRIBUTE) !== location.pathname) return taken;
  try {
    const render = JSON.parse(data.textContent ?? '') as PageRender;
    if (render.adminId === session.adminId && typeof render.now === 'string') taken = render;
  } catch {
    // a page cut short: rendered anew by the browser
  }
  return taken;
}

/** The render main.tsx hydrates with, if any (read by query-client.ts for its answers). */
export function takenPageRender(): PageRender | null {
  return taken ?? null;
}

/** Tests: read the page again. */
export function forgetPageRender(): void {
  taken = undefined;
}
