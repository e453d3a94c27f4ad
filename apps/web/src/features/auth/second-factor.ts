import type { DashboardOutput } from '@keyward/contract/dashboard';

// The second step of signing in (issue 12): after the password or magic link, a person with a
// second factor types a code from their authenticator app (or a recovery code), or uses a passkey.
// Screen logic as a reducer of named events; SecondFactorStep.tsx only renders it.

export type SecondFactorMethod = 'totp' | 'passkey';
export type Session = { adminId: string; token: string };

type SignInAnswer = DashboardOutput<'Login'>;

/** A Login / LoginMagicLink answer: a session, or the challenge of a second step. */
export function splitSignInAnswer(
  answer: SignInAnswer,
): { session: Session } | { challenge: string; methods: SecondFactorMethod[] } {
  if ('secondFactorChallenge' in answer) {
    return {
      challenge: answer.secondFactorChallenge,
      methods: answer.secondFactorMethods ?? ['totp'],
    };
  }
  return { session: { adminId: answer.adminId, token: answer.token } };
}

export type SecondFactorState = {
  challenge: string;
  methods: SecondFactorMethod[];
  /** 'code': the authenticator app's 6 digits; 'recovery': one of the 10 recovery codes. */
  codeKind: 'code' | 'recovery';
  code: string;
  codeError?: string;
  serverError?: string;
  isSubmitting: boolean;
  /** The challenge expired or was spent: the person must sign in again. */
  isExpired: boolean;
};

export type SecondFactorEvent =
  | { type: 'codeChanged'; code: string }
  | { type: 'codeKindToggled' }
  | { type: 'submitted' }
  | { type: 'passkeyStarted' }
  | { type: 'failed'; message: string; isExpired?: boolean };

export const CODE_REQUIRED = 'Enter the 6-digit code from your authenticator app.';
export const RECOVERY_REQUIRED = 'Enter one of your recovery codes, for example k7p2-9xq4-m3td.';
export const PASSKEY_FAILED =
  "That passkey didn't work. Please try again, or use a code from your authenticator app.";

export function initialSecondFactorState(
  challenge: string,
  methods: SecondFactorMethod[],
): SecondFactorState {
  return {
    challenge,
    methods,
    codeKind: 'code',
    code: '',
    isSubmitting: false,
    isExpired: false,
  };
}

/** The field's problem, or undefined when the code can be sent. */
export function secondFactorCodeProblem(
  kind: SecondFactorState['codeKind'],
  code: string,
): string | undefined {
  const compact = code.replace(/[\s-]/g, '');
  if (kind === 'code') return /^\d{6}$/.test(compact) ? undefined : CODE_REQUIRED;
  return /^[a-z0-9]{12}$/i.test(compact) ? undefined : RECOVERY_REQUIRED;
}

export function secondFactorReducer(
  state: SecondFactorState,
  event: SecondFactorEvent,
): SecondFactorState {
  switch (event.type) {
    case 'codeChanged':
      return { ...state, code: event.code, codeError: undefined };
    case 'codeKindToggled':
      return {
        ...state,
        codeKind: state.codeKind === 'code' ? 'recovery' : 'code',
        code: '',
        codeError: undefined,
        serverError: undefined,
      };
    case 'submitted': {
      const codeError = secondFactorCodeProblem(state.codeKind, state.code);
      if (codeError) return { ...state, codeError };
      return { ...state, codeError: undefined, serverError: undefined, isSubmitting: true };
    }
    case 'passkeyStarted':
      return { ...state, serverError: undefined, isSubmitting: true };
    case 'failed':
      return {
        ...state,
        isSubmitting: false,
        serverError: event.message,
        isExpired: event.isExpired ?? false,
        code: '',
      };
  }
}
