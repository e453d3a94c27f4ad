import type { GetAdminOutput } from '@keyward/contract/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ADMIN_ID, fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

const toast = vi.hoisted(() => ({ loading: vi.fn(), success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const admin = (role?: 'coParent'): GetAdminOutput => ({
  id: ADMIN_ID,
  email: 'parent@example.com',
  subscriptionStatus: { case: 'paid' },
  notifications: [],
  verifiedNotificationMethods: [],
  hasAdminChild: false,
  monthlyPriceInDollars: 15,
  ...(role ? { role } : {}),
});

function server(role?: 'coParent') {
  let report: { isEnabled: boolean; timeZone?: string } = { isEnabled: true };
  return fakeServer((op, body) => {
    switch (op) {
      case 'GetAdmin':
        return { body: admin(role) };
      case 'GetWeeklyReport':
        return { body: report };
      case 'SaveWeeklyReport':
        report = body as typeof report;
        return { body: { success: true } };
      default:
        return serverError('notFound');
    }
  });
}

test('the weekly report is on by default; one click turns it off with the browser time zone', async () => {
  const calls = server();
  const user = userEvent.setup();
  renderApp('/settings');
  const toggle = await screen.findByRole('switch', { name: 'Weekly report by email' });
  expect(toggle).toHaveAttribute('aria-checked', 'true');
  await user.click(toggle);
  await waitFor(() =>
    expect(calls.filter((c) => c.op === 'SaveWeeklyReport').map((c) => c.body)).toEqual([
      { isEnabled: false, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
    ]),
  );
  await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'false'));
});

test('a co-parent sees it, and cannot change it', async () => {
  server('coParent');
  renderApp('/settings');
  const toggle = await screen.findByRole('switch', { name: 'Weekly report by email' });
  expect(toggle).toBeDisabled();
  expect(screen.getByText(/Only the account owner can change this/)).toBeInTheDocument();
});
