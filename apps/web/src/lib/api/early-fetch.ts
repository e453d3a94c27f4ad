import type { DashboardOperation, DashboardOutput } from '@keyward/contract/dashboard';
import type { Result } from '@keyward/contract/errors';
import type { PageRender } from '@keyward/contract/page-render';
import type { QueryClient } from '@tanstack/react-query';
import { atMost } from '../at-most';
import { getSession } from '../session';
import { callDashboard, resultOf } from './client';

// Issue 21: a page's first reads start when the app starts, in parallel with the page's code,
// instead of after its last chunk. The entry starts them (app/first-screen.ts), or takes over the
// ones index.html's first-screen script already sent (build/first-screen-preload.ts, the home
// page); react-query takes them over when it is loaded (query-client.ts), so the page does not
// ask a second time. This module is in the entry chunk: it must not import react-query at run time.

type VoidOperation = {
  [Op in DashboardOperation]: undefined extends Parameters<typeof callDashboard<Op>>[1]
    ? Op
    : never;
}[DashboardOperation];

type EarlyCall = {
  token: string;
  startedAt: number;
  result: Promise<Result<DashboardOutput<DashboardOperation>>>;
};

/** Calls older than this are not handed over (react-query's default staleTime). */
const MAX_AGE_MS = 10_000;

const calls = new Map<DashboardOperation, EarlyCall>();

/** The queries adoptEarlyCalls handed to react-query, settled once each is in its cache. */
let adopted: Promise<unknown>[] = [];

/** Where index.html's first-screen script leaves the requests it sent. */
export const HTML_READS_GLOBAL = '__keywardFirstReads';

type SentByHtml = {
  token: string;
  startedAt: number;
  answers: Partial<Record<string, Promise<Response>>>;
};

let sentByHtml: SentByHtml | null | undefined;

function takeSentByHtml(op: DashboardOperation, token: string) {
  if (sentByHtml === undefined) {
    const holder = window as unknown as Record<string, SentByHtml | undefined>;
    sentByHtml = holder[HTML_READS_GLOBAL] ?? null;
    delete holder[HTML_READS_GLOBAL];
  }
  const answer = sentByHtml?.token === token ? sentByHtml.answers[op] : undefined;
  if (!answer || !sentByHtml) return undefined;
  delete sentByHtml.answers[op];
  return { answer, startedAt: sentByHtml.startedAt };
}

/** Starts each operation now (input-less reads only), once, with the session's token. */
export function startEarlyCalls(operations: readonly VoidOperation[]): void {
  const token = getSession()?.token;
  if (!token) return;
  for (const op of operations) {
    if (calls.has(op)) continue;
    const sent = takeSentByHtml(op, token);
    calls.set(op, {
      token,
      startedAt: sent?.startedAt ?? Date.now(),
      result: (sent ? resultOf(sent.answer) : callDashboard(op, undefined)) as EarlyCall['result'],
    });
  }
}

/** The operations started early and not yet handed over (tests, the bench's checks). */
export function pendingEarlyCalls(): DashboardOperation[] {
  return [...calls.keys()];
}

/**
 * Issue 30: the answers a page rendered on the server was rendered with, put in react-query's cache
 * so that the first render (hydrating that HTML) shows them. They count as read when the page
 * arrived (now: the browser's clock, whatever the server's says), and while they are the only
 * answers and fresh, the pages do not ask again at once.
 */
export function adoptRenderedAnswers(
  queryClient: QueryClient,
  render: Pick<PageRender, 'answers'> | null,
  receivedAt = Date.now(),
): void {
  if (!render) return;
  for (const [op, answer] of Object.entries(render.answers)) {
    queryClient.setQueryDefaults(['dashboard', op], {
      refetchOnMount: (query) =>
        query.state.dataUpdateCount > 1 || Date.now() - receivedAt > MAX_AGE_MS,
    });
    queryClient.setQueryData(['dashboard', op], answer, { updatedAt: receivedAt });
  }
}

/**
 * Hands the calls started early to react-query as in-flight queries (the key of
 * `dashboardQueryKey(op)` in hooks.ts), for the same session and while fresh, then forgets them.
 * A page's `useDashboardQuery(op)` that mounts meanwhile waits for that answer instead of asking
 * again; a failed early call is asked once more here, then the page's own retries take over.
 */
export function adoptEarlyCalls(queryClient: QueryClient, now = Date.now()): void {
  const token = getSession()?.token;
  for (const [op, call] of calls) {
    if (call.token !== token || now - call.startedAt > MAX_AGE_MS) continue;
    // The hooks pass their own staleTime (often none, so 0): a page mounting after the early
    // answer arrived would ask again at once. While that answer is the only one and fresh, it does not.
    queryClient.setQueryDefaults(['dashboard', op], {
      refetchOnMount: (query) =>
        query.state.dataUpdateCount > 1 || Date.now() - call.startedAt > MAX_AGE_MS,
    });
    const query = queryClient.prefetchQuery({
      queryKey: ['dashboard', op],
      queryFn: async () => {
        let result = await call.result;
        // a failed early call is asked once more, as the page itself would have
        if (result.type === 'error') result = await callDashboard(op, undefined);
        if (result.type === 'error') throw result.error;
        return result.value;
      },
      retry: false,
    });
    adopted.push(query);
  }
  calls.clear();
}

/**
 * Settles once the early answers handed to react-query are in its cache (at once when none were),
 * or after `maxWaitMs`: the entry renders the first screen then (app/first-screen.ts), whole,
 * rather than the layout with a spinner for each answer still on its way.
 */
export function adoptedCallsSettled(maxWaitMs: number): Promise<void> {
  const queries = adopted;
  adopted = [];
  if (queries.length === 0) return Promise.resolve();
  return atMost(maxWaitMs, Promise.allSettled(queries));
}
