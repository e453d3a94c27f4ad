import type { SecurityEvent } from '@keyward/contract/shared';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const events: SecurityEvent[] = [
  {
    case: 'child',
    id: 'e0000000-0000-4000-8000-000000000001',
    childId: '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69',
    childName: 'Sam',
    deviceId: 'bb22cc33-dd44-4e55-8f66-007788990011',
    deviceName: "Sam's MacBook",
    event: 'App quit',
    detail: 'quit from the menu bar',
    explanation: 'The filter app was quit.',
    createdAt: minutesAgo(3),
  },
  {
    case: 'admin',
    id: 'e0000000-0000-4000-8000-000000000002',
    event: 'Login',
    detail: 'using email/password',
    explanation: 'Someone logged in to this parent account.',
    ipAddress: '8.8.8.8',
    location: { city: 'Mountain View', region: 'California', countryCode: 'US' },
    createdAt: minutesAgo(60),
  },
  {
    case: 'admin',
    id: 'e0000000-0000-4000-8000-000000000003',
    event: 'Login failed',
    explanation: 'Someone tried to log in to this parent account with a wrong password.',
    ipAddress: '127.0.0.1',
    createdAt: minutesAgo(120),
  },
];

describe('/security-events', () => {
  test('entries with admin/child badges, details, location and expandable explanations', async () => {
    fakeServer((op) => (op === 'SecurityEventsFeed' ? { body: events } : serverError('notFound')));
    const user = userEvent.setup();
    renderApp('/security-events');
    expect(await screen.findByRole('heading', { name: 'Security events' })).toBeInTheDocument();
    const items = await screen.findAllByRole('listitem');
    expect(items).toHaveLength(3);

    const [quit, login, failed] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(quit).getByText('Child')).toBeInTheDocument();
    expect(within(quit).getByRole('heading', { name: 'App quit' })).toBeInTheDocument();
    expect(quit).toHaveTextContent('quit from the menu bar');
    expect(quit).toHaveTextContent('Sam');
    expect(quit).toHaveTextContent("Sam's MacBook");
    expect(quit).toHaveTextContent('3 minutes ago');

    expect(within(login).getByText('Admin')).toBeInTheDocument();
    expect(login).toHaveTextContent('IP 8.8.8.8');
    expect(login).toHaveTextContent('Mountain View, California, US');
    expect(failed).toHaveTextContent('Location unknown');

    const toggle = within(login).getByRole('button', { name: 'What does this mean?' });
    const explanation = within(login).getByText('Someone logged in to this parent account.');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(explanation).not.toBeVisible();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(explanation).toBeVisible();
    await user.click(toggle);
    expect(explanation).not.toBeVisible();

    expect(screen.getByRole('link', { name: 'IP location by DB-IP' })).toHaveAttribute(
      'href',
      'https://db-ip.com',
    );
  });

  test('no events: an empty state', async () => {
    fakeServer(() => ({ body: [] }));
    renderApp('/security-events');
    expect(await screen.findByRole('heading', { name: 'No security events' })).toBeInTheDocument();
  });

  test('the sidebar’s Security link is selected on the page', async () => {
    fakeServer(() => ({ body: [] }));
    renderApp('/security-events');
    const links = await screen.findAllByRole('link', { name: 'Security' });
    expect(links.some((link) => link.getAttribute('aria-current') === 'page')).toBe(true);
  });

  test('a failed load shows the error message', async () => {
    fakeServer(() => serverError('serverError', { userMessage: 'Try again in a minute.' }, 500));
    renderApp('/security-events');
    expect(await screen.findByText('Try again in a minute.')).toBeInTheDocument();
  });
});
