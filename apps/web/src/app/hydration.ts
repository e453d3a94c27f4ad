import type { AdminSession } from '../lib/session';

/** Set on #root by the build (scripts/prerender.mjs) to the path whose HTML it holds. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * Issue 30: whether the first render hydrates the HTML already in #root rather than replacing it.
 * The build renders the public pages as a visitor without a session sees them at their bare path;
 * any other first render would differ from that HTML (a signed-in visitor is sent on from /login,
 * `?reset` adds a banner), so it renders anew instead, without a mismatch.
 */
export function shouldHydrate(
  root: Pick<Element, 'getAttribute'>,
  location: Pick<Location, 'pathname' | 'search'>,
  session: AdminSession | null,
): boolean {
  const prerendered = root.getAttribute(PRERENDERED_ATTRIBUTE);
  return (
    prerendered !== null && prerendered === location.pathname && location.search === '' && !session
  );
}
