// Issue 30: a signed-in page rendered on the server. The server renders the dashboard's home page
// with the parent's first reads (apps/server/src/http/signed-in-page.ts, through the dashboard's
// own renderer, apps/web/src/entry-server.tsx) and sends what it rendered with inside the page,
// so that the browser's first render, which hydrates that HTML, is the same render.

/** The session cookie beside the stored token, read only to render GET pages (never by the API). */
export const SESSION_COOKIE = 'keyward_session';

/**
 * POST /session-cookie (X-AdminToken, a JSON body `SessionCookieInput`) sets the cookie; DELETE
 * /session-cookie clears it. (No zod here: the dashboard imports these values at run time.)
 */
export const SESSION_COOKIE_PATH = '/session-cookie';
export type SessionCookieInput = {
  /** The browser's IANA time zone: the page's times are rendered in it. */
  timeZone: string;
};

/** The id of the `<script type="application/json">` that carries the render. */
export const PAGE_RENDER_ELEMENT_ID = 'keyward-page-render';
/** Set on #root to the path whose signed-in page it holds. */
export const RENDERED_FOR_ATTRIBUTE = 'data-rendered-for';
/** In the head of a rendered page: the HTML's own script then sends no first reads. */
export const RENDERED_META_NAME = 'keyward-rendered';

export type PageRender = {
  /** Whose page it is: the browser hydrates only for the same session. */
  adminId: string;
  /** The render's clock, ISO 8601. */
  now: string;
  /** The layout rendered (a phone's, from the request's User-Agent). */
  isMobile: boolean;
  /** The first reads' answers by operation, as the dashboard's API answered them. */
  answers: Record<string, unknown>;
};
