import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { getSession } from '../src/lib/session';
import {
  ADMIN_ID,
  currentLocation,
  fakeServer,
  loggedIn,
  renderApp,
  serverError,
  TOKEN,
} from './helpers';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const login = { adminId: ADMIN_ID, token: TOKEN };

describe('/login', () => {
  test('requires email and a password of at least 4 characters', async () => {
    const calls = fakeServer(() => ({ body: login }));
    const user = userEvent.setup();
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Parent Login' });
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Email is required.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'parent@example.com');
    await user.type(screen.getByLabelText('Password'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByText('Password must be at least 4 characters.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  test('logs in, stores the session and goes to the redirect', async () => {
    const calls = fakeServer(() => ({ body: login }));
    const user = userEvent.setup();
    renderApp('/login?redirect=%2Fsettings');
    await user.type(await screen.findByLabelText('Email'), 'parent@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
    expect(calls[0]).toMatchObject({
      op: 'Login',
      body: { email: 'parent@example.com', password: 'secret' },
    });
    expect(getSession()).toEqual(login);
    expect(localStorage.getItem('admin_token')).toBe(TOKEN);
  });

  test('shows the server message on failure', async () => {
    fakeServer(() =>
      serverError('unauthorized', { userMessage: 'Incorrect email or password' }, 401),
    );
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'parent@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password');
    expect(currentLocation()).toBe('/login');
    expect(getSession()).toBeNull();
  });

  test('Send Magic Link is disabled until the email looks like something@something', async () => {
    const calls = fakeServer(() => ({ body: { success: true } }));
    const user = userEvent.setup();
    renderApp('/login?redirect=%2Fchildren');
    const button = await screen.findByRole('button', { name: 'Send Magic Link' });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Email'), 'parent');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Email'), '@example');
    expect(button).toBeEnabled();
    await user.type(screen.getByLabelText('Email'), '.com'); // what the server accepts
    await user.click(button);
    expect(await screen.findByText(/We sent a magic link/)).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      op: 'RequestMagicLink',
      body: { email: 'parent@example.com', redirect: '/children' },
    });
  });

  test('shows the banner after a password reset', async () => {
    renderApp('/login?reset=1');
    expect(
      await screen.findByText(
        'Password successfully changed! Please log in with your new password.',
      ),
    ).toBeInTheDocument();
  });

  test('no banner on a plain visit, and a link to sign up', async () => {
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Parent Login' });
    expect(screen.queryByText(/Password successfully changed/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
  });
});

describe('/signup', () => {
  test('without admin: check your email, then /login after 7.5 s', async () => {
    const calls = fakeServer(() => ({ body: {} }));
    renderApp('/signup?gclid=ad-123');
    fireEvent.input(await screen.findByLabelText('Email'), {
      target: { value: 'new@example.com' },
    });
    fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      op: 'Signup',
      body: { email: 'new@example.com', password: 'secret', gclid: 'ad-123' },
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(7400);
    });
    expect(currentLocation()).toBe('/signup?gclid=ad-123');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(100);
    });
    expect(currentLocation()).toBe('/login');
  });

  test('with admin: logged in and on to /use-case; no gclid when absent', async () => {
    const calls = fakeServer(() => ({ body: { admin: login } }));
    const user = userEvent.setup();
    renderApp('/signup');
    await user.type(await screen.findByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(currentLocation()).toBe('/use-case'));
    expect(getSession()).toEqual(login);
    expect(calls[0]!.body).toEqual({ email: 'new@example.com', password: 'secret' });
  });

  test.each([
    [serverError('serverError', {}, 500), 'Shucks! Something went wrong, please try again.'],
    [serverError('badRequest', { userMessage: 'That email is taken.' }), 'That email is taken.'],
  ])('failure message %#', async (reply, message) => {
    fakeServer(() => reply);
    const user = userEvent.setup();
    renderApp('/signup');
    await user.type(await screen.findByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('/reset-password (forgot)', () => {
  test('needs an email that splits into two parts on @', async () => {
    const calls = fakeServer(() => ({ body: { success: true } }));
    const user = userEvent.setup();
    renderApp('/reset-password');
    await user.type(await screen.findByLabelText('Email'), 'a@b@c');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'parent@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument();
    expect(calls[0]).toMatchObject({
      op: 'SendPasswordResetEmail',
      body: { email: 'parent@example.com' },
    });
  });

  test('failure: Uh-oh!', async () => {
    fakeServer(() => serverError('serverError', {}, 500));
    const user = userEvent.setup();
    renderApp('/reset-password');
    await user.type(await screen.findByLabelText('Email'), 'parent@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Uh-oh!');
    expect(alert).toHaveTextContent(
      'Looks like something went wrong on our end. Please try again.',
    );
  });
});

describe('/reset-password/:token', () => {
  const token = '44444444-4444-4444-8444-444444444444';

  async function submit(password: string) {
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), password);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  }

  test('needs more than 4 characters', async () => {
    const calls = fakeServer(() => ({ body: { success: true } }));
    renderApp(`/reset-password/${token}`);
    await submit('abcd');
    expect(screen.getByText(/more than 4 characters/)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  test('success goes to /login with the banner', async () => {
    const calls = fakeServer(() => ({ body: { success: true } }));
    renderApp(`/reset-password/${token}`);
    await submit('abcde');
    expect(await screen.findByText(/Password successfully changed!/)).toBeInTheDocument();
    expect(currentLocation()).toBe('/login?reset=1');
    expect(calls[0]).toMatchObject({ op: 'ResetPassword', body: { token, password: 'abcde' } });
  });

  test('success false: token expired', async () => {
    fakeServer(() => ({ body: { success: false } }));
    renderApp(`/reset-password/${token}`);
    await submit('abcde');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Token expired or not found. Please request a new password reset link.',
    );
  });

  test.each([
    [serverError('badRequest', { userMessage: 'Too many attempts.' }, 429), 'Too many attempts.'],
    [serverError('serverError', {}, 500), 'Hmm, something went wrong.'],
  ])('error %#', async (reply, message) => {
    fakeServer(() => reply);
    renderApp(`/reset-password/${token}`);
    await submit('abcde');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('one-shot links', () => {
  const token = '55555555-5555-4555-8555-555555555555';

  test('/otp/:token logs in once under StrictMode and follows the redirect', async () => {
    const calls = fakeServer(() => ({ body: login }));
    renderApp(`/otp/${token}?redirect=%2Fsettings`, { isStrict: true });
    await waitFor(() => expect(currentLocation()).toBe('/settings'));
    expect(calls.filter((c) => c.op === 'LoginMagicLink')).toEqual([
      expect.objectContaining({ body: { token } }),
    ]);
    expect(getSession()).toEqual(login);
  });

  test('/otp/:token with an unknown token', async () => {
    fakeServer(() =>
      serverError(
        'unauthorized',
        { dashboardTag: 'magicLinkTokenNotFound', userMessage: 'x' },
        401,
      ),
    );
    renderApp(`/otp/${token}`, { isStrict: true });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Magic Link token not found, or expired. Please try again.',
    );
  });

  test('/verify-signup-email/:token verifies once and goes to the survey', async () => {
    const calls = fakeServer(() => ({ body: login }));
    renderApp(`/verify-signup-email/${token}`, { isStrict: true });
    await waitFor(() => expect(currentLocation()).toBe('/use-case'));
    expect(calls.filter((c) => c.op === 'VerifySignupEmail')).toHaveLength(1);
    expect(getSession()).toEqual(login);
  });

  test('already verified: message and a login link', async () => {
    fakeServer(() => serverError('badRequest', { dashboardTag: 'emailAlreadyVerified' }));
    renderApp(`/verify-signup-email/${token}`);
    expect(
      await screen.findByText('Your email address has already been verified.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  test.each([
    [
      serverError('badRequest', { userMessage: 'Link expired, we sent a new one.' }),
      'Link expired, we sent a new one.',
    ],
    [serverError('serverError', {}, 500), 'Failed to verify email address.'],
  ])('verification failure %#', async (reply, message) => {
    fakeServer(() => reply);
    renderApp(`/verify-signup-email/${token}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('/logout', () => {
  test('revokes the token, clears the session and keeps the query string', async () => {
    loggedIn();
    const calls = fakeServer(() => ({ body: { success: true } }));
    renderApp('/logout?redirect=%2Fchildren', { isStrict: true });
    await waitFor(() => expect(currentLocation()).toBe('/login?redirect=%2Fchildren'));
    expect(calls.filter((c) => c.op === 'Logout')).toHaveLength(1);
    expect(calls[0]!.headers['X-AdminToken']).toBe(TOKEN);
    expect(getSession()).toBeNull();
    expect(localStorage.getItem('admin_token')).toBeNull();
  });

  test('logs out even when the server call fails', async () => {
    loggedIn();
    fakeServer(() => new TypeError('offline'));
    renderApp('/logout');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
    expect(getSession()).toBeNull();
  });
});

describe('authenticated routes', () => {
  test('without a session, go to /logout with the path, then to /login', async () => {
    fakeServer(() => ({ body: { success: true } }));
    renderApp('/settings');
    await waitFor(() => expect(currentLocation()).toBe('/login?redirect=%2Fsettings'));
  });

  test('at / there is no redirect parameter', async () => {
    fakeServer(() => ({ body: { success: true } }));
    renderApp('/');
    await waitFor(() => expect(currentLocation()).toBe('/login'));
  });

  test('a loggedOut answer sends the parent to /logout with the current path', async () => {
    loggedIn();
    fakeServer((op) =>
      op === 'GetAdmin'
        ? serverError('loggedOut', { id: '8df93d61' }, 401)
        : { body: { success: true } },
    );
    renderApp('/settings');
    await waitFor(() => expect(currentLocation()).toBe('/login?redirect=%2Fsettings'));
    expect(getSession()).toBeNull();
  });
});
