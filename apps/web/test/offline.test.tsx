import type { PqlError } from '@keyward/contract/errors';
import { CLIENT_ERROR_IDS } from '@keyward/contract/constants';
import { onlineManager, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { EMMA_ID } from '../src/features/keychains/test-fixtures';
import { useDashboardMutation, useDashboardQuery } from '../src/lib/api/hooks';
import { createQueryClient } from '../src/lib/api/query-client';
import { shouldRetryQuery } from '../src/lib/api/retry';
import { NETWORK_ERROR_MESSAGE } from '../src/lib/errors';
import { resetSessionCache } from '../src/lib/session';
import { fakeServer, loggedIn, renderApp } from './helpers';

const toast = vi.hoisted(() => ({
  loading: vi.fn(() => 'toast-1'),
  success: vi.fn(),
  error: vi.fn(),
}));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

const emma = {
  id: EMMA_ID,
  name: 'Emma',
  keyloggingEnabled: false,
  screenshotsEnabled: false,
  screenshotsResolution: 1000,
  screenshotsFrequency: 120,
  showSuspensionActivity: false,
  keychains: [],
  devices: [],
  blockedApps: [],
  createdAt: '2025-01-02T03:04:05.000Z',
};

/** The browser goes offline: fetch rejects at once, as Chromium's does, and react-query knows. */
let isOnline = true;
function goOffline() {
  isOnline = false;
  act(() => onlineManager.setOnline(false));
}
function goOnline() {
  isOnline = true;
  act(() => onlineManager.setOnline(true));
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
  resetSessionCache();
  fakeServer((op) => {
    if (!isOnline) return new TypeError('Failed to fetch');
    if (op === 'GetUser') return { body: emma };
    return { body: { success: true } };
  });
});
afterEach(() => {
  goOnline();
  vi.unstubAllGlobals();
});

function wrapper({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{children}</MemoryRouter>
    </QueryClientProvider>
  );
}

describe('offline', () => {
  test('a read fails at once with the network message, then recovers when back online', async () => {
    goOffline();
    const { result } = renderHook(() => useDashboardQuery('GetUser', EMMA_ID), { wrapper });
    // not paused: react-query's default would wait for the network, showing 'Loading...' forever
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.fetchStatus).toBe('idle');
    expect(result.current.error?.userMessage).toBe(NETWORK_ERROR_MESSAGE);

    goOnline();
    await waitFor(() => expect(result.current.data?.name).toBe('Emma'));
    expect(result.current.isError).toBe(false);
  });

  test('a write fails at once; its error toast says it is the network', async () => {
    goOffline();
    const { result } = renderHook(
      () => useDashboardMutation('DeleteEntity_v2', { toast: { verb: 'delete', entity: 'child' } }),
      { wrapper },
    );
    await act(async () => {
      await result.current.mutateAsync({ type: 'child', id: EMMA_ID }).catch(() => {});
    });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.isPaused).toBe(false);
    expect(toast.error).toHaveBeenCalledWith('Failed to delete child', {
      id: 'toast-1',
      duration: 6000,
      description: NETWORK_ERROR_MESSAGE,
    });
  });

  test('a page shows the network message instead of loading, and comes back by itself', async () => {
    goOffline();
    renderApp(`/children/${EMMA_ID}`);
    expect(await screen.findByText(NETWORK_ERROR_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText('Loading child...')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to children' })).toHaveAttribute(
      'href',
      '/children',
    );

    goOnline();
    expect(await screen.findByRole('heading', { name: 'Emma' })).toBeInTheDocument();
  }, 20_000);
});

describe('shouldRetryQuery and the network', () => {
  const network: PqlError = {
    isPqlError: true,
    id: CLIENT_ERROR_IDS.network,
    type: 'clientError',
    debugMessage: 'Failed to fetch',
    userMessage: NETWORK_ERROR_MESSAGE,
  };
  const server: PqlError = { isPqlError: true, id: 'x', type: 'serverError', debugMessage: '' };

  test.each<[string, PqlError, boolean, boolean]>([
    ['network failure, offline: shown at once', network, true, false],
    ['network failure, online (flaky): retried', network, false, true],
    ['server failure, offline: retried', server, true, true],
    ['server failure, online: retried', server, false, true],
  ])('%s', (_name, error, isOffline, expected) => {
    expect(shouldRetryQuery(0, error, false, isOffline)).toBe(expected);
  });
});
