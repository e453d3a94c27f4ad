import type { DashboardOutput } from '@keyward/contract/dashboard';
import type { PqlError, Result } from '@keyward/contract/errors';
import { useIsHydrated } from './hydrated';
import { callDashboard } from './api/client';

// Passkeys in the browser (issue 12) through @simplewebauthn/browser, loaded only when a passkey
// is used so the /login page stays light. The server's options name the dashboard as relying
// party; the page asks for its own hostname (the server accepts any allow-listed dashboard origin).

type Json = Record<string, unknown>;

/** The browser cancelled or refused the ceremony (no passkey, dialog closed, not allowed). */
export const PASSKEY_CANCELLED: PqlError = {
  isPqlError: true,
  type: 'clientError',
  id: 'c1a55e70',
  debugMessage: 'WebAuthn ceremony cancelled or refused by the browser',
  userMessage: 'The passkey sign-in was cancelled. Please try again.',
};

export function isPasskeySupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * isPasskeySupported for rendering: false in the HTML rendered at build time and while that HTML
 * is hydrated (issue 30), then the browser's answer, so the first render matches the HTML.
 */
export function usePasskeySupport(): boolean {
  return useIsHydrated() && isPasskeySupported();
}

function forThisSite(options: Json): Json {
  const hostname = window.location.hostname;
  if (options.rp && typeof options.rp === 'object') {
    return { ...options, rp: { ...(options.rp as Json), id: hostname } };
  }
  return { ...options, rpId: hostname };
}

/** Signs in with a passkey: the second step of `secondFactorChallenge`, or password-less. */
export async function signInWithPasskey(
  secondFactorChallenge?: string,
): Promise<Result<DashboardOutput<'FinishPasskeyLogin'>>> {
  const start = await callDashboard(
    'StartPasskeyLogin',
    secondFactorChallenge ? { secondFactorChallenge } : {},
  );
  if (start.type === 'error') return start;
  const { startAuthentication } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startAuthentication({
      optionsJSON: forThisSite(start.value.options) as never,
    });
  } catch {
    return { type: 'error', error: PASSKEY_CANCELLED };
  }
  return callDashboard('FinishPasskeyLogin', {
    challengeId: start.value.challengeId,
    response: response as Json,
  });
}

/** Registers a new passkey for the signed-in person. */
export async function registerPasskey(
  name?: string,
): Promise<Result<DashboardOutput<'FinishPasskeyRegistration'>>> {
  const start = await callDashboard('StartPasskeyRegistration', undefined);
  if (start.type === 'error') return start;
  const { startRegistration } = await import('@simplewebauthn/browser');
  let response: unknown;
  try {
    response = await startRegistration({ optionsJSON: forThisSite(start.value.options) as never });
  } catch {
    return {
      type: 'error',
      error: { ...PASSKEY_CANCELLED, userMessage: 'Adding the passkey was cancelled.' },
    };
  }
  return callDashboard('FinishPasskeyRegistration', {
    response: response as Json,
    ...(name?.trim() ? { name: name.trim() } : {}),
  });
}
