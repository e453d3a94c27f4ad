import { describe, expect, test } from 'vitest';
import {
  CODE_REQUIRED,
  initialSecondFactorState,
  RECOVERY_REQUIRED,
  secondFactorCodeProblem,
  secondFactorReducer,
  splitSignInAnswer,
} from './second-factor';

const CHALLENGE = '6f1c1b3e-3d5e-4a4f-9a7e-0c2d3e4f5a6b';

describe('splitSignInAnswer', () => {
  test.each([
    [
      'a session (no second factor)',
      { adminId: 'a', token: 't' },
      { session: { adminId: 'a', token: 't' } },
    ],
    [
      'a challenge with its methods',
      { secondFactorChallenge: CHALLENGE, secondFactorMethods: ['passkey' as const] },
      { challenge: CHALLENGE, methods: ['passkey'] },
    ],
    [
      'a challenge without methods (an authenticator code)',
      { secondFactorChallenge: CHALLENGE },
      { challenge: CHALLENGE, methods: ['totp'] },
    ],
  ])('%s', (_what, answer, expected) => {
    expect(splitSignInAnswer(answer)).toEqual(expected);
  });
});

describe('secondFactorCodeProblem', () => {
  test.each([
    ['code', '123456', undefined],
    ['code', '123 456', undefined],
    ['code', '12345', CODE_REQUIRED],
    ['code', 'abcdef', CODE_REQUIRED],
    ['code', '', CODE_REQUIRED],
    ['recovery', 'k7p2-9xq4-m3td', undefined],
    ['recovery', 'K7P2 9XQ4 M3TD', undefined],
    ['recovery', 'k7p2-9xq4', RECOVERY_REQUIRED],
    ['recovery', '', RECOVERY_REQUIRED],
  ] as const)('%s "%s" → %s', (kind, code, problem) => {
    expect(secondFactorCodeProblem(kind, code)).toBe(problem);
  });
});

describe('secondFactorReducer', () => {
  const start = initialSecondFactorState(CHALLENGE, ['totp', 'passkey']);

  test.each([
    [
      'a short code is a field error, nothing is sent',
      [{ type: 'codeChanged', code: '123' }, { type: 'submitted' }],
      { codeError: CODE_REQUIRED, isSubmitting: false },
    ],
    [
      'a full code is sent',
      [{ type: 'codeChanged', code: '123456' }, { type: 'submitted' }],
      { codeError: undefined, isSubmitting: true },
    ],
    [
      'a wrong code shows the server message and clears the field',
      [
        { type: 'codeChanged', code: '123456' },
        { type: 'submitted' },
        { type: 'failed', message: "That code didn't work." },
      ],
      { serverError: "That code didn't work.", code: '', isSubmitting: false, isExpired: false },
    ],
    [
      'switching to a recovery code clears the field and the errors',
      [{ type: 'codeChanged', code: '12' }, { type: 'submitted' }, { type: 'codeKindToggled' }],
      { codeKind: 'recovery', code: '', codeError: undefined },
    ],
    [
      'an expired challenge asks to sign in again',
      [{ type: 'passkeyStarted' }, { type: 'failed', message: 'expired', isExpired: true }],
      { isExpired: true, isSubmitting: false },
    ],
  ] as const)('%s', (_what, events, expected) => {
    const state = events.reduce(secondFactorReducer, start);
    expect(state).toMatchObject(expected);
  });
});
