import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { childOf, computerOf, LEO_ID } from '../children/test-fixtures';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

describe('dashboard', () => {
  test('situation 3: no children shows the welcome with Add a child', async () => {
    fakeServer(() => ({ body: [] }));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Welcome to Keyward' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a child' })).toHaveAttribute(
      'href',
      '/children/new',
    );
  });

  test('situation 1: the first child has no computer: two steps and a connection code', async () => {
    const leo = childOf({
      id: LEO_ID,
      name: 'Leo',
      createdAt: '2025-02-01T00:00:00.000Z',
      devices: [computerOf()],
    });
    const emma = childOf({ createdAt: '2025-01-01T00:00:00.000Z' });
    fakeServer((op) => {
      if (op === 'GetUsers') return { body: [leo, emma] };
      if (op === 'GetUser') return { body: emma };
      if (op === 'CreatePendingAppConnection') return { body: { code: 654321 } };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: "Let's connect Emma's computer" }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: "Step 1: Install the Keyward app on your child's Mac" }),
    ).toBeInTheDocument();
    const download = screen.getByRole('link', { name: 'Download the Mac app' });
    expect(download).toHaveAttribute('target', '_blank');
    await user.click(screen.getByRole('button', { name: 'Get connection code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect a computer' });
    expect(await within(dialog).findByText('654321')).toBeInTheDocument();
  });

  test('situation 2 (for now): children with computers are listed with their status', async () => {
    const emma = childOf({ devices: [computerOf({ status: { case: 'filterOff' } })] });
    const leo = childOf({ id: LEO_ID, name: 'Leo', createdAt: '2025-06-01T00:00:00.000Z' });
    fakeServer((op) => (op === 'GetUsers' ? { body: [emma, leo] } : serverError('notFound')));
    renderApp('/');
    const emmaLink = await screen.findByRole('link', { name: /Emma/ });
    expect(emmaLink).toHaveAttribute('href', '/children');
    expect(emmaLink).toHaveTextContent('Filter off');
    expect(screen.getByRole('link', { name: /Leo/ })).toHaveTextContent('Setup incomplete');
  });
});
