import { describe, expect, test } from 'vitest';
import {
  isLoginPasswordInputValid,
  isValidResetPassword,
  isValidSignupPassword,
  resetPasswordProblem,
  signupPasswordProblem,
} from '../src/passwords.ts';

const ofLength = (n: number) => 'p'.repeat(n);

describe('password lengths', () => {
  test.each<[number, boolean, boolean, boolean]>([
    // length, login input, signup, reset
    [0, false, false, false],
    [3, false, false, false],
    [4, true, true, false],
    [5, true, true, true],
    [256, true, true, true],
    [257, true, false, false],
  ])('length %i: login %s, signup %s, reset %s', (n, login, signup, reset) => {
    expect(isLoginPasswordInputValid(ofLength(n))).toBe(login);
    expect(isValidSignupPassword(ofLength(n))).toBe(signup);
    expect(isValidResetPassword(ofLength(n))).toBe(reset);
  });

  test.each<[number, string | null, string | null]>([
    [
      3,
      'Your password needs at least 4 characters.',
      'Your new password needs more than 4 characters.',
    ],
    [4, null, 'Your new password needs more than 4 characters.'],
    [5, null, null],
    [
      257,
      'Your password can have at most 256 characters.',
      'Your new password can have at most 256 characters.',
    ],
  ])('messages for length %i', (n, signup, reset) => {
    expect(signupPasswordProblem(ofLength(n))).toBe(signup);
    expect(resetPasswordProblem(ofLength(n))).toBe(reset);
  });
});
