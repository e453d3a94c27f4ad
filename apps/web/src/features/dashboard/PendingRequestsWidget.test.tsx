import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { childOf, computerOf, EMMA_ID } from '../children/test-fixtures';
import { unlockRequestOf } from '../unlock-requests/test-fixtures';
import { pendingRequestsPreview } from './PendingRequestsWidget';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const at = (id: number, minutesAgo: number, status: 'pending' | 'accepted' = 'pending') =>
  unlockRequestOf({
    id: `a0000000-0000-4000-8000-00000000000${id}`,
    status,
    createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  });

describe('pendingRequestsPreview', () => {
  test.each<[string, ReturnType<typeof at>[], number[], number]>([
    ['none', [], [], 0],
    ['one', [at(1, 5)], [1], 0],
    [
      'newest two of four, pending only',
      [at(1, 50), at(2, 5), at(3, 1, 'accepted'), at(4, 20), at(5, 90)],
      [2, 4],
      2,
    ],
  ])('%s', (_name, requests, shownIds, numOlder) => {
    const preview = pendingRequestsPreview(requests);
    expect(preview.shown.map((request) => Number(request.id.at(-1)))).toEqual(shownIds);
    expect(preview.numOlder).toBe(numOlder);
  });
});

describe('dashboard widget', () => {
  test("shows up to 2 pending requests, 'And N older' and View all", async () => {
    fakeServer((op) => {
      if (op === 'GetUsers') return { body: [childOf({ devices: [computerOf()] })] };
      if (op === 'GetUnlockRequests') return { body: [at(1, 50), at(2, 5), at(3, 20)] };
      return serverError('notFound');
    });
    renderApp('/');
    const widget = (
      await screen.findByRole('heading', { name: 'Pending unlock requests' })
    ).closest('section') as HTMLElement;
    const links = within(widget).getAllByRole('link', { name: /Review/ });
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveAttribute(
      'href',
      `/children/${EMMA_ID}/unlock-requests/a0000000-0000-4000-8000-000000000002`,
    );
    expect(within(widget).getByText('And 1 older')).toBeInTheDocument();
    expect(within(widget).getByRole('link', { name: 'View all' })).toHaveAttribute(
      'href',
      '/unlock-requests',
    );
  });

  test('no pending request, no widget', async () => {
    const calls = fakeServer((op) => {
      if (op === 'GetUsers') return { body: [childOf({ devices: [computerOf()] })] };
      if (op === 'GetUnlockRequests') return { body: [at(1, 5, 'accepted')] };
      return serverError('notFound');
    });
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Children' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.op === 'GetUnlockRequests')).toBe(true));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(
      screen.queryByRole('heading', { name: 'Pending unlock requests' }),
    ).not.toBeInTheDocument();
  });
});
