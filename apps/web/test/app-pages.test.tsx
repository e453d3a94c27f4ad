import {
  act,
  fireEvent,
  render,
  renderHook,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { useDashboardMutation, useDashboardQuery } from '../src/lib/api/hooks';
import { createQueryClient } from '../src/lib/api/query-client';
import { Sidebar } from '../src/app/Sidebar';
import { SIDEBAR_COLLAPSED_KEY } from '../src/app/useSidebarCollapsed';
import { getSession, resetSessionCache } from '../src/lib/session';
import { ADMIN_ID, currentLocation, fakeServer, loggedIn, renderApp, serverError } from './helpers';

const toast = vi.hoisted(() => ({
  loading: vi.fn(() => 'toast-1'),
  success: vi.fn(),
  error: vi.fn(),
}));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('/use-case', () => {
  test('parent continues to the dashboard', async () => {
    loggedIn();
    fakeServer(() => ({ body: [] }));
    const user = userEvent.setup();
    renderApp('/use-case');
    const continueButton = await screen.findByRole('button', { name: 'Continue' });
    expect(continueButton).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: /parent or guardian/ }));
    await user.click(continueButton);
    await waitFor(() => expect(currentLocation()).toBe('/'));
  });

  test('self: warning, account deletion, logout after 3 s', async () => {
    loggedIn();
    const calls = fakeServer(() => ({ body: { success: true } }));
    renderApp('/use-case');
    fireEvent.click(await screen.findByRole('radio', { name: /for me/ }));
    expect(screen.getByRole('alert')).toHaveTextContent('Keyward is not meant for self-control');
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    // nothing is deleted before the parent confirms, in the spec's deletion words
    const dialog = screen.getByRole('dialog', { name: 'Delete account?' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this account? There is no undo.',
    );
    expect(calls).toHaveLength(0);
    vi.useFakeTimers();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(calls[0]).toMatchObject({
      op: 'DeleteEntity_v2',
      body: { type: 'parent', id: ADMIN_ID },
    });
    expect(screen.getByText('Your account has been deleted')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2900);
    });
    expect(currentLocation()).toBe('/use-case');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(['/logout', '/login']).toContain(currentLocation());
    vi.useRealTimers();
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(getSession()).toBeNull();
  });

  test('self: deletion failure', async () => {
    loggedIn();
    fakeServer(() => serverError('serverError', {}, 500));
    const user = userEvent.setup();
    renderApp('/use-case');
    await user.click(await screen.findByRole('radio', { name: /for me/ }));
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete account?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(
      await screen.findByText('Hmm, something went wrong. Refresh the page and try again.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('self: cancelling the confirmation deletes nothing', async () => {
    loggedIn();
    const calls = fakeServer(() => ({ body: { success: true } }));
    const user = userEvent.setup();
    renderApp('/use-case');
    await user.click(await screen.findByRole('radio', { name: /for me/ }));
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete account?' })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Delete my account' })).toBeInTheDocument();
  });
});

describe('conference pages', () => {
  test.each([
    ['/conf-workshop', 'workshop'],
    ['/conf-booth', 'booth'],
  ])('%s saves the email with source %s', async (path, source) => {
    const calls = fakeServer(() => ({ body: { success: true } }));
    const user = userEvent.setup();
    renderApp(path);
    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send me the info' }));
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'visitor@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me the info' }));
    expect(await screen.findByRole('heading', { name: 'Thank you!' })).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      op: 'SaveConferenceEmail',
      body: { email: 'visitor@example.com', source },
    });
  });

  test('errors are titled Uh oh!', async () => {
    fakeServer(() => serverError('badRequest', { userMessage: 'Slow down.' }, 429));
    const user = userEvent.setup();
    renderApp('/conf-booth');
    await user.type(await screen.findByLabelText('Email'), 'visitor@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me the info' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Uh oh!');
    expect(alert).toHaveTextContent('Slow down.');
  });
});

describe('chrome', () => {
  test('dashboard welcome with sidebar; Dashboard active only at /', async () => {
    loggedIn();
    const noWidgets = {
      children: [],
      childActivitySummaries: [],
      unlockRequests: [],
      recentScreenshots: [],
      numParentNotifications: 0,
    };
    fakeServer((op) => ({ body: op === 'DashboardWidgets' ? noWidgets : [] }));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome to Keyward' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Add a child/ })).toHaveAttribute(
      'href',
      '/children/new',
    );
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav.querySelector('[aria-current="page"]')).toHaveTextContent('Dashboard');
    const docs = screen.getByRole('link', { name: 'Documentation' });
    expect(docs).toHaveAttribute('target', '_blank');
    expect(docs.getAttribute('rel')).toContain('noopener');
  });

  test('unknown pages show a friendly 404 inside the chrome', async () => {
    loggedIn();
    fakeServer(() => ({ body: [] }));
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav.querySelector('[aria-current="page"]')).toBeNull();
  });

  test('sidebar links are active by path prefix, Dashboard only when exact', () => {
    render(
      <MemoryRouter initialEntries={['/children/abc/activity']}>
        <Sidebar />
      </MemoryRouter>,
    );
    const active = screen.getAllByRole('link').filter((l) => l.getAttribute('aria-current'));
    expect(active.map((l) => l.textContent)).toEqual(['Children']);
  });

  test('the collapsed sidebar is remembered', async () => {
    loggedIn();
    fakeServer(() => ({ body: [] }));
    const user = userEvent.setup();
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: /Collapse sidebar/ }));
    expect(localStorage.getItem(SIDEBAR_COLLAPSED_KEY)).toBe('true');
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
  });

  test('below 768 px: hamburger opens a slide-over; resize is debounced 250 ms', async () => {
    loggedIn();
    fakeServer(() => ({ body: [] }));
    const user = userEvent.setup();
    window.innerWidth = 390;
    renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Open menu' }));
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog', { name: 'Menu' })).not.toBeInTheDocument();

    vi.useFakeTimers();
    window.innerWidth = 1280;
    fireEvent(window, new Event('resize'));
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByRole('button', { name: 'Open menu' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(60));
    expect(screen.queryByRole('button', { name: 'Open menu' })).not.toBeInTheDocument();
    window.innerWidth = 1024;
  });

  test('settings shows the account email and a change password link', async () => {
    loggedIn();
    const calls = fakeServer(() => ({
      body: {
        id: ADMIN_ID,
        email: 'parent@example.com',
        subscriptionStatus: { case: 'paid' },
        notifications: [],
        verifiedNotificationMethods: [],
        hasAdminChild: false,
        monthlyPriceInDollars: 10,
      },
    }));
    renderApp('/settings');
    expect(await screen.findByText('parent@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change password' })).toHaveAttribute(
      'href',
      '/reset-password',
    );
    // besides the chrome's IOSDevices (the sidebar's iOS link) and GetInbox (its "Needs you" count,
    // issue 20), the page reads GetAdmin and, for its Parents and Sign-in security sections
    // (issue 12), GetParents and GetSignInSecurity, and for "This device" and the weekly report
    // (issue 23) GetPushSubscriptions and GetWeeklyReport
    const chrome = ['IOSDevices', 'GetInbox'];
    // the sections' reads start as they mount, after the account's own has answered
    await waitFor(() =>
      expect(calls.map((c) => c.op).filter((op) => !chrome.includes(op))).toHaveLength(5),
    );
    expect(calls.map((c) => c.op).filter((op) => !chrome.includes(op))).toEqual([
      'GetAdmin',
      'GetParents',
      'GetPushSubscriptions',
      'GetWeeklyReport',
      'GetSignInSecurity',
    ]);
  });
});

describe('query and mutation hooks', () => {
  function wrapper({ children }: { children: ReactNode }) {
    return (
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    );
  }

  test('mutation toasts: loading, then success', async () => {
    loggedIn();
    resetSessionCache();
    fakeServer(() => ({ body: { success: true } }));
    const { result } = renderHook(
      () => useDashboardMutation('SaveKeychain', { toast: { verb: 'save', entity: 'keychain' } }),
      { wrapper },
    );
    await act(() =>
      result.current.mutateAsync({
        isNew: true,
        id: '66666666-6666-4666-8666-666666666666',
        name: 'School',
      }),
    );
    expect(toast.loading).toHaveBeenCalledWith('Saving keychain...');
    expect(toast.success).toHaveBeenCalledWith('Keychain saved!', { id: 'toast-1' });
  });

  test('mutation toasts: error for 6 s, and no retry', async () => {
    loggedIn();
    resetSessionCache();
    const calls = fakeServer(() => serverError('serverError', {}, 500));
    const { result } = renderHook(
      () => useDashboardMutation('DeleteEntity_v2', { toast: { verb: 'delete', entity: 'child' } }),
      { wrapper },
    );
    await act(async () => {
      await result.current
        .mutateAsync({ type: 'child', id: '66666666-6666-4666-8666-666666666666' })
        .catch(() => {});
    });
    expect(toast.error).toHaveBeenCalledWith('Failed to delete child', {
      id: 'toast-1',
      duration: 6000,
    });
    expect(calls).toHaveLength(1);
  });

  test('a failing read is not retried in test mode and exposes the PqlError', async () => {
    loggedIn();
    resetSessionCache();
    const calls = fakeServer(() => serverError('serverError', {}, 500));
    const { result } = renderHook(() => useDashboardQuery('GetUsers', undefined), { wrapper });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toMatchObject({ isPqlError: true, type: 'serverError' });
    expect(calls).toHaveLength(1);
  });
});

test('render sanity: the error modal', async () => {
  const { ErrorModal } = await import('../src/components/ui/ErrorModal');
  render(
    <ErrorModal
      error={{ isPqlError: true, id: 'x', type: 'notFound', debugMessage: '', entityName: 'Child' }}
    />,
  );
  expect(screen.getByRole('dialog', { name: 'Not found' })).toHaveTextContent('Child not found.');
  expect(screen.getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
});
