import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { getSession } from '../../lib/session';
import { ADMIN_ID, fakeServer, renderApp, TOKEN } from '../../../test/helpers';

// Issue 12: 'Sign in with a passkey' on /login and the passkey as the second step; the browser's
// WebAuthn ceremony (@simplewebauthn/browser) is replaced by a stand-in.

const ceremony = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => ceremony);

const CHALLENGE = '33333333-3333-4333-8333-333333333333';
const CEREMONY = '44444444-4444-4444-8444-444444444444';
const ASSERTION = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', response: {} };

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  ceremony.startAuthentication.mockResolvedValue(ASSERTION);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('passkeys on /login', () => {
  test('Sign in with a passkey: options for this site, the assertion is verified, signed in', async () => {
    const calls = fakeServer((op) => {
      if (op === 'StartPasskeyLogin') {
        return {
          body: { challengeId: CEREMONY, options: { challenge: 'abc', rpId: 'example.com' } },
        };
      }
      if (op === 'FinishPasskeyLogin') return { body: { adminId: ADMIN_ID, token: TOKEN } };
      return { body: {} };
    });
    const user = userEvent.setup();
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    await vi.waitFor(() => expect(getSession()).toEqual({ adminId: ADMIN_ID, token: TOKEN }));
    expect(ceremony.startAuthentication).toHaveBeenCalledWith({
      optionsJSON: { challenge: 'abc', rpId: window.location.hostname },
    });
    expect(calls.slice(0, 2)).toMatchObject([
      { op: 'StartPasskeyLogin', body: {} },
      { op: 'FinishPasskeyLogin', body: { challengeId: CEREMONY, response: ASSERTION } },
    ]);
  });

  test('a cancelled ceremony says so and signs nobody in', async () => {
    ceremony.startAuthentication.mockRejectedValue(new Error('NotAllowedError'));
    const calls = fakeServer((op) =>
      op === 'StartPasskeyLogin'
        ? { body: { challengeId: CEREMONY, options: { challenge: 'abc' } } }
        : { body: {} },
    );
    const user = userEvent.setup();
    renderApp('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(
      await screen.findByText('The passkey sign-in was cancelled. Please try again.'),
    ).toBeVisible();
    expect(getSession()).toBeNull();
    expect(calls.map((c) => c.op)).toEqual(['StartPasskeyLogin']);
  });

  test('as the second step: the passkey completes the challenge of the password', async () => {
    const calls = fakeServer((op) => {
      if (op === 'Login') {
        return { body: { secondFactorChallenge: CHALLENGE, secondFactorMethods: ['passkey'] } };
      }
      if (op === 'StartPasskeyLogin') {
        return { body: { challengeId: CEREMONY, options: { challenge: 'abc' } } };
      }
      if (op === 'FinishPasskeyLogin') return { body: { adminId: ADMIN_ID, token: TOKEN } };
      return { body: {} };
    });
    const user = userEvent.setup();
    renderApp('/login');
    await user.type(await screen.findByLabelText('Email'), 'dana@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    // only a passkey: no code field
    await user.click(await screen.findByRole('button', { name: 'Use my passkey' }));
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    await vi.waitFor(() => expect(getSession()).toEqual({ adminId: ADMIN_ID, token: TOKEN }));
    expect(calls.find((c) => c.op === 'StartPasskeyLogin')?.body).toEqual({
      secondFactorChallenge: CHALLENGE,
    });
  });
});
