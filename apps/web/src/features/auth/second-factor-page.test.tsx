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

// Issue 12: the login page's second step (an authenticator code or a recovery code).

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  window.localStorage.clear();
  window.sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const CHALLENGE = '33333333-3333-4333-8333-333333333333';

async function passwordStep(user: ReturnType<typeof userEvent.setup>) {
  renderApp('/login');
  await user.type(await screen.findByLabelText('Email'), 'dana@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('/login with two-step sign-in', () => {
  test('the password answers a challenge; the authenticator code signs in', async () => {
    const calls = fakeServer((op) => {
      if (op === 'Login') {
        return { body: { secondFactorChallenge: CHALLENGE, secondFactorMethods: ['totp'] } };
      }
      if (op === 'LoginSecondFactor') return { body: { adminId: ADMIN_ID, token: TOKEN } };
      return { body: {} };
    });
    const user = userEvent.setup();
    await passwordStep(user);
    await screen.findByRole('heading', { name: 'Two-step sign-in' });
    expect(getSession()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('Enter the 6-digit code from your authenticator app.', {
        selector: '[id$="-error"], p',
      }),
    ).toBeInTheDocument();
    expect(calls.map((c) => c.op)).toEqual(['Login']);
    await user.type(screen.getByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(getSession()).toEqual({ adminId: ADMIN_ID, token: TOKEN }));
    expect(calls[1]).toMatchObject({
      op: 'LoginSecondFactor',
      body: { challenge: CHALLENGE, code: '123456' },
    });
    await vi.waitFor(() => expect(currentLocation()).toBe('/'));
  });

  test('a wrong code shows the server message; a recovery code can be used instead', async () => {
    let attempts = 0;
    const calls = fakeServer((op) => {
      if (op === 'Login') return { body: { secondFactorChallenge: CHALLENGE } };
      if (op === 'LoginSecondFactor') {
        attempts += 1;
        return attempts === 1
          ? serverError('unauthorized', { userMessage: "That code didn't work." }, 401)
          : { body: { adminId: ADMIN_ID, token: TOKEN } };
      }
      return { body: {} };
    });
    const user = userEvent.setup();
    await passwordStep(user);
    await user.type(await screen.findByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText("That code didn't work.")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    await user.type(screen.getByLabelText('Recovery code'), 'k7p2-9xq4-m3td');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(getSession()).toEqual({ adminId: ADMIN_ID, token: TOKEN }));
    expect(calls.at(-1)?.body).toEqual({ challenge: CHALLENGE, code: 'k7p2-9xq4-m3td' });
  });

  test('with only a passkey, a lost one is replaced by a recovery code', async () => {
    const calls = fakeServer((op) => {
      if (op === 'Login') {
        return { body: { secondFactorChallenge: CHALLENGE, secondFactorMethods: ['passkey'] } };
      }
      if (op === 'LoginSecondFactor') return { body: { adminId: ADMIN_ID, token: TOKEN } };
      return { body: {} };
    });
    const user = userEvent.setup();
    await passwordStep(user);
    expect(await screen.findByText(/Use your passkey to finish signing in\./)).toBeVisible();
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    await user.click(
      screen.getByRole('button', { name: 'Lost your passkey? Use a recovery code' }),
    );
    await user.type(screen.getByLabelText('Recovery code'), 'k7p2-9xq4-m3td');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(getSession()).toEqual({ adminId: ADMIN_ID, token: TOKEN }));
    expect(calls.at(-1)).toMatchObject({
      op: 'LoginSecondFactor',
      body: { challenge: CHALLENGE, code: 'k7p2-9xq4-m3td' },
    });
  });

  test('an expired challenge asks to sign in again', async () => {
    fakeServer((op) => {
      if (op === 'Login') return { body: { secondFactorChallenge: CHALLENGE } };
      return serverError(
        'unauthorized',
        {
          userMessage: 'This sign-in has expired. Please sign in again.',
          dashboardTag: 'secondFactorChallengeExpired',
        },
        401,
      );
    });
    const user = userEvent.setup();
    await passwordStep(user);
    await user.type(await screen.findByLabelText('Authentication code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('This sign-in has expired. Please sign in again.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Sign in again' })).toHaveAttribute('href', '/login');
  });

  test('an account without a second factor signs in at once, as before', async () => {
    fakeServer((op) =>
      op === 'Login' ? { body: { adminId: ADMIN_ID, token: TOKEN } } : { body: {} },
    );
    const user = userEvent.setup();
    await passwordStep(user);
    await vi.waitFor(() => expect(getSession()).toEqual({ adminId: ADMIN_ID, token: TOKEN }));
  });
});
