export const MIN_PASSWORD_LENGTH = 4;
export const MAX_PASSWORD_LENGTH = 256;

/** Login password inputs carry minLength 4; the server never checks length on login. */
export function isLoginPasswordInputValid(password: string): boolean {
  return password.length >= MIN_PASSWORD_LENGTH;
}

export function isValidSignupPassword(password: string): boolean {
  return password.length >= MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH;
}

/** A reset password must be longer than 4 characters. */
export function isValidResetPassword(password: string): boolean {
  return password.length > MIN_PASSWORD_LENGTH && password.length <= MAX_PASSWORD_LENGTH;
}

export function signupPasswordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `Your password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Your password can have at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  return null;
}

export function resetPasswordProblem(password: string): string | null {
  if (password.length <= MIN_PASSWORD_LENGTH) {
    return `Your new password needs more than ${MIN_PASSWORD_LENGTH} characters.`;
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    return `Your new password can have at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  return null;
}
