import { INVALID_EMAIL_MESSAGE } from '@keyward/domain/email';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { currentLocation, fakeServer, loggedIn, renderApp, serverError } from './helpers';

// Issue 14: the pages check an email with the server's own rule (packages/domain/src/email.ts),
// so 'x@y' is a field message, never 'went wrong on our end'; the login page is keyboard-ready.

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The email field shows the message, and the server was never asked. */
async function expectFieldMessage(calls: unknown[]) {
  const field = screen.getByLabelText('Email');
  expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(field).toHaveAccessibleDescription(INVALID_EMAIL_MESSAGE);
  expect(calls).toHaveLength(0);
}

describe("an email the server would refuse ('x@y')", () => {
  test.each([
    ['/signup', 'Sign up', true],
    ['/reset-password', 'Send reset link', false],
    ['/conf-workshop', 'Send me the info', false],
  ])('%s: field message, no request', async (path, button, needsPassword) => {
    const calls = fakeServer(() => ({ body: { success: true } }));
    const user = userEvent.setup();
    renderApp(path);
    await user.type(await screen.findByLabelText('Email'), 'x@y');
    if (needsPassword) await user.type(screen.getByLabelText('Password'), 'long-enough-1');
    await user.click(screen.getByRole('button', { name: button }));
    await expectFieldMessage(calls);
    expect(screen.queryByText(/on our end/)).not.toBeInTheDocument();
  });

  test('/login: Send Magic Link gives a field message, no request', async () => {
    const calls = fakeServer(() => ({ body: { success: true } }));
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'x@y');
    await user.click(screen.getByRole('button', { name: 'Send Magic Link' }));
    await expectFieldMessage(calls);

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'parent@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Magic Link' }));
    expect(await screen.findByText('Check your email')).toBeInTheDocument();
    expect(calls.map((call) => call.op)).toEqual(['RequestMagicLink']);
  });
});

describe('/login', () => {
  test('the email field has focus', async () => {
    fakeServer(() => ({ body: {} }));
    renderApp('/login');
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(email).toHaveFocus());
  });

  test.each([
    ['/login', '/'],
    ['/login?redirect=%2Fkeychains', '/keychains'],
  ])('a signed-in parent opening %s goes to %s', async (path, destination) => {
    loggedIn();
    fakeServer(() => ({ body: [] }));
    renderApp(path);
    await waitFor(() => expect(currentLocation()).toBe(destination));
    expect(screen.queryByRole('heading', { name: 'Parent Login' })).not.toBeInTheDocument();
  });
});

test('a bad verification link offers to log in or sign up again', async () => {
  fakeServer(() => serverError('notFound', {}, 404));
  renderApp('/verify-signup-email/00000000-0000-4000-8000-000000000000');
  expect(await screen.findByRole('alert')).toHaveTextContent('Failed to verify email address.');
  expect(screen.getByRole('main')).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  expect(screen.getByRole('link', { name: 'Sign up again' })).toHaveAttribute('href', '/signup');
});
