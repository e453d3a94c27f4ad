import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

// Issue 21: the home page's data is asked for when the entry runs, before the page's chunk has
// arrived (here: before its module is evaluated), and react-query takes that answer over.

const events: string[] = [];

vi.mock('../src/features/dashboard/DashboardPage', () => {
  events.push('DashboardPage chunk evaluated');
  return { default: () => null };
});
vi.mock('../src/app/AuthenticatedLayout', () => {
  events.push('AuthenticatedLayout chunk evaluated');
  return { default: () => null };
});

const widgets = { children: [{ id: 'c1', name: 'Sam' }] };

function answer(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  vi.resetModules();
  events.length = 0;
  fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const op = url.split('/').at(-1);
    events.push(`${op} requested with ${(init.headers as Record<string, string>)['X-AdminToken']}`);
    return answer(op === 'DashboardWidgets' ? widgets : []);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

function signIn() {
  localStorage.setItem('admin_id', 'parent-1');
  localStorage.setItem('admin_token', 'token-1');
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('the first screen at navigation', () => {
  test("home: the entry sends the page's reads before the page's chunk is evaluated", async () => {
    signIn();
    window.history.replaceState(null, '', '/');
    await import('../src/app/first-screen');
    // sent while the entry module runs, not after a render
    expect(events).toEqual([
      'IOSDevices requested with token-1',
      'DashboardWidgets requested with token-1',
      'GetFamilyDevices requested with token-1',
      'GetInbox requested with token-1',
      'GetUsers requested with token-1',
    ]);
    await flush();
    expect(events).toContain('DashboardPage chunk evaluated');
    expect(events).toContain('AuthenticatedLayout chunk evaluated');
    expect(events.indexOf('DashboardWidgets requested with token-1')).toBeLessThan(
      events.indexOf('DashboardPage chunk evaluated'),
    );
  });

  test('/login and signed-out visits send nothing', async () => {
    window.history.replaceState(null, '', '/login');
    signIn();
    await import('../src/app/first-screen');
    window.history.replaceState(null, '', '/');
    localStorage.clear();
    const { prepareFirstScreen } = await import('../src/app/routes');
    const { resetSessionCache } = await import('../src/lib/session');
    resetSessionCache();
    prepareFirstScreen('/');
    await flush();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(events).toEqual([]);
  });

  test('takes over the reads that index.html already sent', async () => {
    signIn();
    const sent = answer(widgets);
    (window as unknown as Record<string, unknown>).__keywardFirstReads = {
      token: 'token-1',
      startedAt: Date.now(),
      answers: { DashboardWidgets: Promise.resolve(sent) },
    };
    const { startEarlyCalls, HTML_READS_GLOBAL } = await import('../src/lib/api/early-fetch');
    expect(HTML_READS_GLOBAL).toBe('__keywardFirstReads');
    startEarlyCalls(['DashboardWidgets', 'IOSDevices']);
    // DashboardWidgets was already on its way; only IOSDevices is sent
    expect(events).toEqual(['IOSDevices requested with token-1']);
    const { queryClient } = await import('../src/lib/api/query-client');
    await flush();
    expect(queryClient.getQueryData(['dashboard', 'DashboardWidgets'])).toEqual(widgets);
  });

  test('react-query takes the early answer over: the page does not ask again', async () => {
    signIn();
    const { startEarlyCalls, adoptEarlyCalls, pendingEarlyCalls } = await import(
      '../src/lib/api/early-fetch'
    );
    const { dashboardQueryKey } = await import('../src/lib/api/hooks');
    startEarlyCalls(['DashboardWidgets']);
    expect(pendingEarlyCalls()).toEqual(['DashboardWidgets']);
    const client = new QueryClient();
    adoptEarlyCalls(client);
    expect(pendingEarlyCalls()).toEqual([]);
    const pageFetch = vi.fn();
    // the page mounts while the answer is on its way, and again once it has arrived
    for (let mount = 0; mount < 2; mount++) {
      const observer = new QueryObserver(client, {
        queryKey: dashboardQueryKey('DashboardWidgets'),
        queryFn: pageFetch,
      });
      const unsubscribe = observer.subscribe(() => {});
      await flush();
      expect(observer.getCurrentResult().data).toEqual(widgets);
      unsubscribe();
    }
    expect(pageFetch).not.toHaveBeenCalled();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  test("another parent's early answer is not handed over", async () => {
    signIn();
    const { startEarlyCalls, adoptEarlyCalls } = await import('../src/lib/api/early-fetch');
    const session = await import('../src/lib/session');
    startEarlyCalls(['DashboardWidgets']);
    session.logIn({ adminId: 'parent-2', token: 'token-2' });
    const client = new QueryClient();
    adoptEarlyCalls(client);
    expect(client.getQueryCache().find({ queryKey: ['dashboard', 'DashboardWidgets'] })).toBe(
      undefined,
    );
  });
});

describe('the first render waits for the first screen (issue 21)', () => {
  test('home: ready once the chunks have arrived and the early answers are in the cache', async () => {
    signIn();
    window.history.replaceState(null, '', '/');
    const { firstScreenReady } = await import('../src/app/first-screen');
    await firstScreenReady;
    const { queryClient } = await import('../src/lib/api/query-client');
    // the page's first render has its data: no spinner, no second render
    expect(queryClient.getQueryData(['dashboard', 'DashboardWidgets'])).toEqual(widgets);
    expect(queryClient.getQueryState(['dashboard', 'GetInbox'])?.status).toBe('success');
  });

  test('a slow answer does not hold the first render longer than FIRST_READS_WAIT_MS', async () => {
    signIn();
    window.history.replaceState(null, '', '/');
    let answerWidgets: (response: Response) => void = () => {};
    fetchMock.mockImplementation((url: string) =>
      url.endsWith('/DashboardWidgets')
        ? new Promise<Response>((resolve) => {
            answerWidgets = resolve;
          })
        : Promise.resolve(answer([])),
    );
    // the app's modules are loaded before the clock starts: it measures the wait, not vite's
    // first transform of them (seconds on a loaded CI machine)
    await import('../src/app/routes');
    const startedAt = Date.now();
    const { firstScreenReady, FIRST_READS_WAIT_MS } = await import('../src/app/first-screen');
    await firstScreenReady;
    const waited = Date.now() - startedAt;
    expect(waited).toBeGreaterThanOrEqual(FIRST_READS_WAIT_MS - 20);
    expect(waited).toBeLessThan(FIRST_READS_WAIT_MS + 2000);
    const { queryClient } = await import('../src/lib/api/query-client');
    // still on its way: the page shows its own spinner for it, and gets it when it comes
    expect(queryClient.getQueryState(['dashboard', 'DashboardWidgets'])?.status).toBe('pending');
    answerWidgets(answer(widgets));
    await flush();
    expect(queryClient.getQueryData(['dashboard', 'DashboardWidgets'])).toEqual(widgets);
  });

  test('/login: ready at once, nothing asked', async () => {
    window.history.replaceState(null, '', '/login');
    const { firstScreenReady } = await import('../src/app/first-screen');
    await firstScreenReady;
    expect(fetchMock).not.toHaveBeenCalled();
    expect(events).toEqual([]);
  });
});
