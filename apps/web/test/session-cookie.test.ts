import { afterEach, describe, expect, test, vi } from 'vitest';
import { logIn, logOut, resetSessionCache } from '../src/lib/session';
import { keepSessionCookie, syncSessionCookie } from '../src/lib/session-cookie';

// Issue 30: the HttpOnly session cookie the server renders the home page with follows the session
// kept in the browser's storage: set at sign-in, cleared at sign-out.

afterEach(() => {
  vi.unstubAllGlobals();
  resetSessionCache();
});

function recordFetch() {
  const fetch = vi.fn(
    async (_url: string, _init?: RequestInit) => new Response(null, { status: 204 }),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('the session cookie', () => {
  test('a session is sent to POST /session-cookie with its token and the time zone', () => {
    const fetch = recordFetch();
    syncSessionCookie({ adminId: 'a', token: 't-1' });
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/session-cookie');
    expect(init.method).toBe('POST');
    expect(init.headers).toMatchObject({ 'X-AdminToken': 't-1' });
    expect(JSON.parse(String(init.body))).toEqual({
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
  });

  test('no session: DELETE /session-cookie', () => {
    const fetch = recordFetch();
    syncSessionCookie(null);
    expect(fetch.mock.calls.map(([url, init]) => [url, init?.method])).toEqual([
      ['/session-cookie', 'DELETE'],
    ]);
  });

  test('kept in step: once for a session the server did not render, then at each sign-in and sign-out', () => {
    const fetch = recordFetch();
    logIn({ adminId: 'a', token: 't-1' });
    keepSessionCookie({ isRendered: false });
    logIn({ adminId: 'a', token: 't-1' }); // the same session again: nothing to send
    logIn({ adminId: 'b', token: 't-2' });
    logOut();
    expect(fetch.mock.calls.map(([, init]) => init?.method)).toEqual(['POST', 'POST', 'DELETE']);
    expect(fetch.mock.calls[1]?.[1]?.headers).toMatchObject({ 'X-AdminToken': 't-2' });
  });

  test('a page the server rendered has its cookie already', () => {
    logIn({ adminId: 'a', token: 't-3' });
    const fetch = recordFetch();
    keepSessionCookie({ isRendered: true });
    expect(fetch).not.toHaveBeenCalled();
  });

  test('a failed request is not an error of the page', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    expect(() => syncSessionCookie({ adminId: 'a', token: 't' })).not.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});
