// Settings → Sign-in security (issue 12): the authenticator app (enrol with a QR code and a first
// code, recovery codes shown once, turn off with a code) and passkeys (add, remove). Screen logic as
// a reducer of named events; SignInSecuritySection.tsx only renders it.

export type TotpPhase =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | {
      phase: 'scanning';
      secret: string;
      otpauthUrl: string;
      code: string;
      codeError?: string;
      isConfirming: boolean;
    }
  | { phase: 'showingCodes'; codes: string[]; isCopied: boolean }
  | { phase: 'disabling'; code: string; codeError?: string; isDisabling: boolean };

export type SignInSecurityState = {
  totp: TotpPhase;
  passkeyName: string;
  isAddingPasskey: boolean;
  /** recovery codes that came with a first passkey (the person had none), shown once */
  passkeyCodes?: { codes: string[]; isCopied: boolean };
  /** the passkey whose removal waits for confirmation */
  confirmingRemoval?: { id: string; name: string };
  error?: string;
  notice?: string;
};

export type SignInSecurityEvent =
  | { type: 'enableClicked' }
  | { type: 'enrolmentStarted'; secret: string; otpauthUrl: string }
  | { type: 'codeChanged'; code: string }
  | { type: 'confirmSubmitted' }
  | { type: 'confirmSucceeded'; recoveryCodes: string[] }
  | { type: 'codesCopied' }
  | { type: 'codesSaved' }
  | { type: 'disableClicked' }
  | { type: 'disableSubmitted' }
  | { type: 'disableSucceeded' }
  | { type: 'cancelled' }
  | { type: 'requestFailed'; message: string }
  | { type: 'passkeyNameChanged'; name: string }
  | { type: 'passkeyAddStarted' }
  | { type: 'passkeyAdded'; name: string; recoveryCodes?: string[] }
  | { type: 'passkeyCodesCopied' }
  | { type: 'passkeyCodesSaved' }
  | { type: 'removeRequested'; id: string; name: string }
  | { type: 'removeCancelled' }
  | { type: 'removeSucceeded' };

export const initialSignInSecurityState: SignInSecurityState = {
  totp: { phase: 'idle' },
  passkeyName: '',
  isAddingPasskey: false,
};

export const TOTP_CODE_REQUIRED = 'Enter the 6-digit code your authenticator app shows.';
export const DISABLE_CODE_REQUIRED =
  'Enter the 6-digit code from your authenticator app, or one of your recovery codes.';
export const TOTP_ENABLED_NOTICE =
  'Two-step sign-in is on. Keep your recovery codes somewhere safe.';
export const TOTP_DISABLED_NOTICE = 'The authenticator app was turned off.';
export const PASSKEY_CODES_SAVED_NOTICE =
  'Two-step sign-in is on. Keep your recovery codes somewhere safe.';

const isSixDigits = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, ''));
const isRecoveryCode = (code: string) => /^[a-z0-9]{12}$/i.test(code.replace(/[\s-]/g, ''));

/** "ABCD EFGH …": the secret in groups of four, easier to type into an app by hand. */
export function groupedSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret;
}

/** The text of the recovery codes file offered for download. */
export function recoveryCodesFileText(appName: string, email: string, codes: string[]): string {
  return [
    `${appName} recovery codes for ${email}`,
    '',
    'Each code signs you in once if you cannot use your authenticator app or passkey.',
    'Keep them somewhere safe, such as a password manager.',
    '',
    ...codes,
    '',
  ].join('\n');
}

export function signInSecurityReducer(
  state: SignInSecurityState,
  event: SignInSecurityEvent,
): SignInSecurityState {
  const { totp } = state;
  switch (event.type) {
    case 'enableClicked':
      return { ...state, totp: { phase: 'starting' }, error: undefined, notice: undefined };
    case 'enrolmentStarted':
      return {
        ...state,
        totp: {
          phase: 'scanning',
          secret: event.secret,
          otpauthUrl: event.otpauthUrl,
          code: '',
          isConfirming: false,
        },
      };
    case 'codeChanged':
      if (totp.phase === 'scanning' || totp.phase === 'disabling') {
        return { ...state, totp: { ...totp, code: event.code, codeError: undefined } };
      }
      return state;
    case 'confirmSubmitted':
      if (totp.phase !== 'scanning') return state;
      if (!isSixDigits(totp.code)) {
        return { ...state, totp: { ...totp, codeError: TOTP_CODE_REQUIRED } };
      }
      return { ...state, error: undefined, totp: { ...totp, isConfirming: true } };
    case 'confirmSucceeded':
      return {
        ...state,
        totp: { phase: 'showingCodes', codes: event.recoveryCodes, isCopied: false },
      };
    case 'codesCopied':
      return totp.phase === 'showingCodes'
        ? { ...state, totp: { ...totp, isCopied: true } }
        : state;
    case 'codesSaved':
      return { ...state, totp: { phase: 'idle' }, notice: TOTP_ENABLED_NOTICE };
    case 'disableClicked':
      return {
        ...state,
        error: undefined,
        notice: undefined,
        totp: { phase: 'disabling', code: '', isDisabling: false },
      };
    case 'disableSubmitted':
      if (totp.phase !== 'disabling') return state;
      if (!isSixDigits(totp.code) && !isRecoveryCode(totp.code)) {
        return { ...state, totp: { ...totp, codeError: DISABLE_CODE_REQUIRED } };
      }
      return { ...state, error: undefined, totp: { ...totp, isDisabling: true } };
    case 'disableSucceeded':
      return { ...state, totp: { phase: 'idle' }, notice: TOTP_DISABLED_NOTICE };
    case 'cancelled':
      return { ...state, totp: { phase: 'idle' }, error: undefined };
    case 'requestFailed': {
      const next: TotpPhase =
        totp.phase === 'starting'
          ? { phase: 'idle' }
          : totp.phase === 'scanning'
            ? { ...totp, isConfirming: false, code: '' }
            : totp.phase === 'disabling'
              ? { ...totp, isDisabling: false, code: '' }
              : totp;
      return { ...state, totp: next, isAddingPasskey: false, error: event.message };
    }
    case 'passkeyNameChanged':
      return { ...state, passkeyName: event.name };
    case 'passkeyAddStarted':
      return { ...state, isAddingPasskey: true, error: undefined, notice: undefined };
    case 'passkeyAdded':
      return {
        ...state,
        isAddingPasskey: false,
        passkeyName: '',
        notice: `Passkey "${event.name}" added. You can use it to sign in.`,
        ...(event.recoveryCodes
          ? { passkeyCodes: { codes: event.recoveryCodes, isCopied: false } }
          : {}),
      };
    case 'passkeyCodesCopied':
      return state.passkeyCodes
        ? { ...state, passkeyCodes: { ...state.passkeyCodes, isCopied: true } }
        : state;
    case 'passkeyCodesSaved':
      return { ...state, passkeyCodes: undefined, notice: PASSKEY_CODES_SAVED_NOTICE };
    case 'removeRequested':
      return {
        ...state,
        confirmingRemoval: { id: event.id, name: event.name },
        notice: undefined,
      };
    case 'removeCancelled':
      return { ...state, confirmingRemoval: undefined };
    case 'removeSucceeded':
      return {
        ...state,
        notice: state.confirmingRemoval
          ? `Passkey "${state.confirmingRemoval.name}" removed.`
          : undefined,
        confirmingRemoval: undefined,
      };
  }
}
