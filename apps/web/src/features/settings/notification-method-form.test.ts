import { describe, expect, test } from 'vitest';
import {
  canResendCode,
  canSendCode,
  canVerifyCode,
  closedMethodForm,
  confirmInput,
  methodConfigToSend,
  type NotificationMethodFormEvent,
  type NotificationMethodFormState,
  notificationMethodFormReducer,
} from './notification-method-form';

const METHOD_ID = '4c3b2a19-0f8e-4d7c-9b6a-5f4e3d2c1b0a';

function run(state: NotificationMethodFormState, ...events: NotificationMethodFormEvent[]) {
  return events.reduce(notificationMethodFormReducer, state);
}
const opened = () => run(closedMethodForm, { type: 'createClicked' });

describe('entering a method', () => {
  test.each<[string, NotificationMethodFormEvent[], boolean]>([
    ['empty email', [], false],
    ['email something@something', [{ type: 'emailAddressUpdated', email: 'mum@home' }], true],
    ['email without @', [{ type: 'emailAddressUpdated', email: 'mum.home' }], false],
    [
      'ten-digit phone',
      [
        { type: 'methodTypeUpdated', methodType: 'text' },
        { type: 'textPhoneNumberUpdated', phoneNumber: '(415) 555-2671' },
      ],
      true,
    ],
    [
      'too short phone',
      [
        { type: 'methodTypeUpdated', methodType: 'text' },
        { type: 'textPhoneNumberUpdated', phoneNumber: '12345' },
      ],
      false,
    ],
    [
      'complete slack',
      [
        { type: 'methodTypeUpdated', methodType: 'slack' },
        { type: 'slackChannelNameUpdated', channelName: 'fa' },
        { type: 'slackChannelIdUpdated', channelId: 'C012' },
        { type: 'slackTokenUpdated', token: 'xoxb-123' },
      ],
      true,
    ],
    [
      'slack token without xoxb-',
      [
        { type: 'methodTypeUpdated', methodType: 'slack' },
        { type: 'slackChannelNameUpdated', channelName: 'family' },
        { type: 'slackChannelIdUpdated', channelId: 'C0123' },
        { type: 'slackTokenUpdated', token: 'xoxp-123' },
      ],
      false,
    ],
    [
      'slack channel id too short',
      [
        { type: 'methodTypeUpdated', methodType: 'slack' },
        { type: 'slackChannelNameUpdated', channelName: 'family' },
        { type: 'slackChannelIdUpdated', channelId: 'C01' },
        { type: 'slackTokenUpdated', token: 'xoxb-123' },
      ],
      false,
    ],
  ])('%s → Send code enabled: %s', (_name, events, expected) => {
    expect(canSendCode(run(opened(), ...events))).toBe(expected);
  });

  test('a text number is sent normalised to E.164', () => {
    const state = run(
      opened(),
      { type: 'methodTypeUpdated', methodType: 'text' },
      { type: 'textPhoneNumberUpdated', phoneNumber: '415.555.2671' },
    );
    expect(methodConfigToSend(state)).toEqual({
      ok: true,
      config: { case: 'text', phoneNumber: '+14155552671' },
    });
  });
});

describe('sending and verifying the code', () => {
  const withEmail = () => run(opened(), { type: 'emailAddressUpdated', email: 'mum@home.org' });

  test('Sending..., then a 6-digit code, Verifying..., then confirmed', () => {
    const sending = run(withEmail(), { type: 'sendCodeClicked' });
    expect(sending.phase).toBe('sending');
    expect(canSendCode(sending)).toBe(false);
    const sent = run(sending, { type: 'codeSent', methodId: METHOD_ID });
    expect(sent).toMatchObject({ phase: 'codeSent', pendingMethodId: METHOD_ID });
    expect(canVerifyCode(sent)).toBe(false);

    const typed = run(sent, { type: 'codeUpdated', code: '12a34 56' });
    expect(typed.code).toBe('123456');
    expect(canVerifyCode(typed)).toBe(true);
    expect(confirmInput(typed)).toEqual({ id: METHOD_ID, code: 123456 });

    const verifying = run(typed, { type: 'verifyCodeClicked' });
    expect(verifying.phase).toBe('verifying');
    const verified = run(verifying, { type: 'codeVerified' });
    expect(verified).toMatchObject({
      phase: 'verified',
      isOpen: false,
      pendingMethodId: METHOD_ID,
    });
  });

  test.each([
    ['12345', false],
    ['123456', true],
    ['1234567', true], // cut to 6 digits
  ])('code %j complete: %s', (code, expected) => {
    const state = run(
      withEmail(),
      { type: 'sendCodeClicked' },
      { type: 'codeSent', methodId: METHOD_ID },
      { type: 'codeUpdated', code },
    );
    expect(canVerifyCode(state)).toBe(expected);
  });

  test('resend sends a fresh code for a new pending method', () => {
    const sent = run(
      withEmail(),
      { type: 'sendCodeClicked' },
      { type: 'codeSent', methodId: METHOD_ID },
      { type: 'codeUpdated', code: '99' },
    );
    expect(canResendCode(sent)).toBe(true);
    const resending = run(sent, { type: 'sendCodeClicked' });
    expect(resending).toMatchObject({ phase: 'sending', code: '' });
    const again = run(resending, { type: 'codeSent', methodId: 'another-id' });
    expect(again.pendingMethodId).toBe('another-id');
  });

  test('a failed send shows the reason and allows another try', () => {
    const failed = run(
      withEmail(),
      { type: 'sendCodeClicked' },
      { type: 'sendCodeFailed', message: 'Slack said no' },
    );
    expect(failed).toMatchObject({ phase: 'editing', error: 'Slack said no' });
    expect(canSendCode(failed)).toBe(true);
  });

  test('a wrong code spends the pending method: a new code must be sent', () => {
    const failed = run(
      withEmail(),
      { type: 'sendCodeClicked' },
      { type: 'codeSent', methodId: METHOD_ID },
      { type: 'codeUpdated', code: '000000' },
      { type: 'verifyCodeClicked' },
      { type: 'verifyCodeFailed', message: 'Incorrect or expired code. Please request a new one.' },
    );
    expect(failed).toMatchObject({ phase: 'editing', pendingMethodId: undefined, code: '' });
    expect(canSendCode(failed)).toBe(true);
  });

  // issue 20: a typo does not end the attempt
  test('a wrong code with tries left keeps the field, the code and the pending method', () => {
    const failed = run(
      withEmail(),
      { type: 'sendCodeClicked' },
      { type: 'codeSent', methodId: METHOD_ID },
      { type: 'codeUpdated', code: '123465' },
      { type: 'verifyCodeClicked' },
      {
        type: 'verifyCodeFailed',
        message: 'Incorrect code. Check it and try again: 2 tries left.',
        mayRetry: true,
      },
    );
    expect(failed).toMatchObject({
      phase: 'codeSent',
      pendingMethodId: METHOD_ID,
      code: '123465',
      error: 'Incorrect code. Check it and try again: 2 tries left.',
    });
    expect(canVerifyCode(failed)).toBe(true);
    const corrected = run(failed, { type: 'codeUpdated', code: '123456' });
    expect(corrected.error).toBeUndefined();
    expect(confirmInput(corrected)).toEqual({ id: METHOD_ID, code: 123456 });
  });

  test('Cancel closes and forgets everything', () => {
    const state = run(withEmail(), { type: 'sendCodeClicked' }, { type: 'cancelClicked' });
    expect(state).toEqual(closedMethodForm);
  });
});
