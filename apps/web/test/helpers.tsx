import type { DashboardOperation } from '@keyward/contract/dashboard';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppRoutes } from '../src/app/App';
import { Providers } from '../src/app/Providers';
import { queryClient } from '../src/lib/api/query-client';
import { forgetOneShots } from '../src/lib/one-shot';
import { logIn, resetSessionCache } from '../src/lib/session';

export type Call = { op: string; body: unknown; headers: Record<string, string> };
export type Reply = { status?: number; body: unknown } | Error;
type Handler = (op: DashboardOperation, body: unknown) => Reply | Promise<Reply>;

/** Replaces fetch with a fake PairQL server; returns the list of calls it received. */
export function fakeServer(handler: Handler): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const op = url.replace(/^.*\/pairql\/dashboard\//, '') as DashboardOperation;
      const body = init.body === undefined ? undefined : JSON.parse(String(init.body));
      calls.push({ op, body, headers: { ...(init.headers as Record<string, string>) } });
      const reply = await handler(op, body);
      if (reply instanceof Error) throw reply;
      return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200 });
    }),
  );
  return calls;
}

export function serverError(
  type: string,
  extra: Record<string, unknown> = {},
  status = 400,
): Reply {
  return {
    status,
    body: {
      id: 'abcdef12',
      type,
      requestId: 'req-1',
      debugMessage: 'debug',
      showContactSupport: false,
      statusCode: status,
      version: 1,
      ...extra,
    },
  };
}

export const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
export const TOKEN = '22222222-2222-4222-8222-222222222222';

export function loggedIn(): void {
  logIn({ adminId: ADMIN_ID, token: TOKEN });
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export function currentLocation(): string {
  return document.querySelector('[data-testid="location"]')?.textContent ?? '';
}

/** Renders the real app routes at `path`, optionally under StrictMode. */
export function renderApp(path: string, { isStrict = false } = {}) {
  resetSessionCache();
  forgetOneShots();
  queryClient.clear();
  const app = (
    <Providers>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </Providers>
  );
  return render(isStrict ? <StrictMode>{app}</StrictMode> : app);
}
