import { describe, expect, test } from 'vitest';
import {
  DISABLE_CODE_REQUIRED,
  groupedSecret,
  initialSignInSecurityState,
  recoveryCodesFileText,
  type SignInSecurityEvent,
  signInSecurityReducer,
  TOTP_CODE_REQUIRED,
  TOTP_DISABLED_NOTICE,
  TOTP_ENABLED_NOTICE,
} from './sign-in-security';

const run = (events: SignInSecurityEvent[]) =>
  events.reduce(signInSecurityReducer, initialSignInSecurityState);

const started: SignInSecurityEvent[] = [
  { type: 'enableClicked' },
  { type: 'enrolmentStarted', secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x' },
];

describe('sign-in security: authenticator app', () => {
  test.each<[string, SignInSecurityEvent[], object]>([
    ['enable shows the QR step', started, { totp: { phase: 'scanning', code: '' } }],
    [
      'a short code is a field error',
      [...started, { type: 'codeChanged', code: '12' }, { type: 'confirmSubmitted' }],
      { totp: { phase: 'scanning', codeError: TOTP_CODE_REQUIRED, isConfirming: false } },
    ],
    [
      'a full code is confirmed',
      [...started, { type: 'codeChanged', code: '123 456' }, { type: 'confirmSubmitted' }],
      { totp: { phase: 'scanning', isConfirming: true } },
    ],
    [
      'a wrong code keeps the QR step, clears the field and shows the message',
      [
        ...started,
        { type: 'codeChanged', code: '123456' },
        { type: 'confirmSubmitted' },
        { type: 'requestFailed', message: "That code didn't work." },
      ],
      {
        totp: { phase: 'scanning', code: '', isConfirming: false },
        error: "That code didn't work.",
      },
    ],
    [
      'the recovery codes are shown once, then the notice',
      [...started, { type: 'confirmSucceeded', recoveryCodes: ['a', 'b'] }],
      { totp: { phase: 'showingCodes', codes: ['a', 'b'], isCopied: false } },
    ],
    [
      'copying is acknowledged',
      [...started, { type: 'confirmSucceeded', recoveryCodes: ['a'] }, { type: 'codesCopied' }],
      { totp: { phase: 'showingCodes', isCopied: true } },
    ],
    [
      'done hides the codes for good',
      [...started, { type: 'confirmSucceeded', recoveryCodes: ['a'] }, { type: 'codesSaved' }],
      { totp: { phase: 'idle' }, notice: TOTP_ENABLED_NOTICE },
    ],
    ['cancel leaves enrolment', [...started, { type: 'cancelled' }], { totp: { phase: 'idle' } }],
    [
      'a failed start goes back to idle with the message',
      [{ type: 'enableClicked' }, { type: 'requestFailed', message: 'Offline' }],
      { totp: { phase: 'idle' }, error: 'Offline' },
    ],
    [
      'turning off needs a code or a recovery code',
      [
        { type: 'disableClicked' },
        { type: 'codeChanged', code: 'abc' },
        { type: 'disableSubmitted' },
      ],
      { totp: { phase: 'disabling', codeError: DISABLE_CODE_REQUIRED, isDisabling: false } },
    ],
    [
      'a recovery code can turn it off',
      [
        { type: 'disableClicked' },
        { type: 'codeChanged', code: 'k7p2-9xq4-m3td' },
        { type: 'disableSubmitted' },
      ],
      { totp: { phase: 'disabling', isDisabling: true } },
    ],
    [
      'turned off',
      [
        { type: 'disableClicked' },
        { type: 'codeChanged', code: '123456' },
        { type: 'disableSubmitted' },
        { type: 'disableSucceeded' },
      ],
      { totp: { phase: 'idle' }, notice: TOTP_DISABLED_NOTICE },
    ],
  ])('%s', (_what, events, expected) => {
    expect(run(events)).toMatchObject(expected);
  });
});

describe('sign-in security: passkeys', () => {
  test.each<[string, SignInSecurityEvent[], object]>([
    [
      'adding a passkey names it in the notice and clears the name',
      [
        { type: 'passkeyNameChanged', name: 'MacBook' },
        { type: 'passkeyAddStarted' },
        { type: 'passkeyAdded', name: 'MacBook' },
      ],
      {
        isAddingPasskey: false,
        passkeyName: '',
        notice: 'Passkey "MacBook" added. You can use it to sign in.',
      },
    ],
    [
      'a cancelled ceremony shows the message',
      [{ type: 'passkeyAddStarted' }, { type: 'requestFailed', message: 'Cancelled.' }],
      { isAddingPasskey: false, error: 'Cancelled.' },
    ],
    [
      'removal asks for confirmation',
      [{ type: 'removeRequested', id: 'p1', name: 'Phone' }],
      { confirmingRemoval: { id: 'p1', name: 'Phone' } },
    ],
    [
      'removal confirmed',
      [{ type: 'removeRequested', id: 'p1', name: 'Phone' }, { type: 'removeSucceeded' }],
      { confirmingRemoval: undefined, notice: 'Passkey "Phone" removed.' },
    ],
    [
      'removal cancelled',
      [{ type: 'removeRequested', id: 'p1', name: 'Phone' }, { type: 'removeCancelled' }],
      { confirmingRemoval: undefined },
    ],
  ])('%s', (_what, events, expected) => {
    expect(run(events)).toMatchObject(expected);
  });
});

describe('helpers', () => {
  test.each([
    ['JBSWY3DPEHPK3PXP', 'JBSW Y3DP EHPK 3PXP'],
    ['ABCDEF', 'ABCD EF'],
  ])('groupedSecret(%s) = %s', (secret, grouped) => {
    expect(groupedSecret(secret)).toBe(grouped);
  });

  test('the recovery codes file lists every code with its account', () => {
    const text = recoveryCodesFileText('Keyward', 'a@b.com', ['k7p2-9xq4-m3td', 'b8r5-2wvn-h6ce']);
    expect(text).toContain('Keyward recovery codes for a@b.com');
    expect(text.split('\n')).toEqual(expect.arrayContaining(['k7p2-9xq4-m3td', 'b8r5-2wvn-h6ce']));
  });
});
