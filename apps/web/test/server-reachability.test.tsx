import { CLIENT_ERROR_IDS } from '@keyward/contract/constants';
import { onlineManager } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { childOf, computerOf } from '../src/features/children/test-fixtures';
import { errorMessage, NETWORK_ERROR_MESSAGE } from '../src/lib/errors';
import { ONLINE_POLL_MS } from '../src/lib/live-status';
import { RETRY_UNREACHABLE_MS } from '../src/lib/server-reachability';
import { fakeServer, loggedIn, renderApp, serverError } from './helpers';

// issue 20: when our server cannot be reached the page says so, retries, and greys the statuses
// it last read; a browser that is really offline keeps the spec's network message.

const NETWORK_ID = CLIENT_ERROR_IDS.network;
const UNREACHABLE = "Can't reach the Keyward server — retrying";

let isServerUp = true;
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.useFakeTimers({ shouldAdvanceTime: true });
  loggedIn();
  isServerUp = true;
  const emma = childOf({ devices: [computerOf({ status: { case: 'filterOn' } })] });
  fakeServer((op) => {
    if (!isServerUp) return new TypeError('Failed to fetch');
    if (op === 'GetUsers') return { body: [emma] };
    return serverError('notFound');
  });
});
afterEach(() => {
  act(() => onlineManager.setOnline(true));
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the unreachable-server banner', () => {
  test("a really offline browser keeps the spec's network message, and no banner", async () => {
    renderApp('/children');
    await screen.findByRole('article', { name: 'Emma' });
    isServerUp = false;
    act(() => onlineManager.setOnline(false));
    await act(() => vi.advanceTimersByTimeAsync(ONLINE_POLL_MS));
    expect(screen.queryByText(UNREACHABLE)).not.toBeInTheDocument();
    expect(
      errorMessage({
        isPqlError: true,
        id: NETWORK_ID,
        type: 'clientError',
        debugMessage: '',
        userMessage: NETWORK_ERROR_MESSAGE,
      }),
    ).toBe(NETWORK_ERROR_MESSAGE);
    act(() => onlineManager.setOnline(true));
    expect(
      errorMessage({
        isPqlError: true,
        id: NETWORK_ID,
        type: 'clientError',
        debugMessage: '',
        userMessage: NETWORK_ERROR_MESSAGE,
      }),
    ).toBe("Can't reach the Keyward server. Nothing was changed; please try again in a moment.");
  });

  test('polls that fail show the banner and grey the statuses; the next answer clears both', {
    timeout: 20_000,
  }, async () => {
    renderApp('/children');
    const card = await screen.findByRole('article', { name: 'Emma' });
    expect(within(card).getAllByText('Filter on')[0]).toBeInTheDocument();
    expect(screen.queryByText(UNREACHABLE)).not.toBeInTheDocument();

    isServerUp = false;
    await act(() => vi.advanceTimersByTimeAsync(ONLINE_POLL_MS));
    expect(await screen.findByText(UNREACHABLE)).toBeInTheDocument();
    expect(screen.queryByText(NETWORK_ERROR_MESSAGE)).not.toBeInTheDocument();
    // the last statuses read stay, greyed and named as such
    await vi.waitFor(() =>
      expect(within(card).getAllByText('(last known)').length).toBeGreaterThan(0),
    );
    // once the failed read has reached the page too, the page keeps its last answer
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(screen.queryByText(NETWORK_ERROR_MESSAGE)).not.toBeInTheDocument();
    expect(card).toBeInTheDocument();
    expect(within(card).getAllByText('(last known)').length).toBeGreaterThan(0);

    isServerUp = true;
    await act(() => vi.advanceTimersByTimeAsync(RETRY_UNREACHABLE_MS));
    await vi.waitFor(() => expect(screen.queryByText(UNREACHABLE)).not.toBeInTheDocument());
    const fresh = screen.getByRole('article', { name: 'Emma' });
    expect(within(fresh).queryAllByText('(last known)')).toEqual([]);
    expect(within(fresh).getAllByText('Filter on')[0]).toBeInTheDocument();
  });
});
