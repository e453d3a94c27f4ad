import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { getSession } from '../../lib/session';
import {
  ADMIN_ID,
  currentLocation,
  fakeServer,
  renderApp,
  serverError,
  TOKEN,
} from '../../../test/helpers';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const INVITE = '77777777-7777-4777-8777-777777777777';

describe('/parent-invite/:token', () => {
  test('choosing a password accepts the invitation and signs in', async () => {
    const calls = fakeServer((op) => {
      if (op === 'AcceptParentInvite') return { body: { adminId: ADMIN_ID, token: TOKEN } };
      return { body: {} };
    });
    const user = userEvent.setup();
    renderApp(`/parent-invite/${INVITE}`);
    await screen.findByRole('heading', { name: 'Join your family on Keyward' });
    await user.type(screen.getByLabelText('Choose a password'), 'a good password');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    await vi.waitFor(() => expect(getSession()).toEqual({ adminId: ADMIN_ID, token: TOKEN }));
    expect(calls[0]).toMatchObject({
      op: 'AcceptParentInvite',
      body: { token: INVITE, password: 'a good password' },
    });
    await vi.waitFor(() => expect(currentLocation()).toBe('/'));
  });

  test('a link that no longer works says so, with the way to log in', async () => {
    fakeServer(() =>
      serverError(
        'unauthorized',
        {
          userMessage:
            'This invitation link is not valid any more. Ask the account owner to send a new one.',
        },
        401,
      ),
    );
    const user = userEvent.setup();
    renderApp(`/parent-invite/${INVITE}`);
    await user.type(await screen.findByLabelText('Choose a password'), 'a good password');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(await screen.findByText(/not valid any more/)).toBeInTheDocument();
    expect(getSession()).toBeNull();
    expect(
      screen.getByRole('link', { name: 'Log in with a password or a login link' }),
    ).toHaveAttribute('href', '/login');
  });

  test('a too-short password is refused before any request', async () => {
    const calls = fakeServer(() => ({ body: {} }));
    const user = userEvent.setup();
    renderApp(`/parent-invite/${INVITE}`);
    await user.type(await screen.findByLabelText('Choose a password'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Accept the invitation' }));
    expect(calls).toHaveLength(0);
  });
});
