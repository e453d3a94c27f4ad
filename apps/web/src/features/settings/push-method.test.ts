import { describe, expect, test } from 'vitest';
import {
  base64UrlToBytes,
  browserLabel,
  initialPushMethod,
  type PushMethodEvent,
  type PushMethodState,
  pushMethodReducer,
} from './push-method';

const run = (events: PushMethodEvent[], from: PushMethodState = initialPushMethod) =>
  events.reduce(pushMethodReducer, from);

describe('turning on "This device"', () => {
  test.each<[string, PushMethodEvent[], PushMethodState['phase']]>([
    ['starts by choosing', [], 'choosing'],
    ['asks the browser', [{ type: 'turnOnClicked' }], 'asking'],
    [
      'saves once permission is granted',
      [{ type: 'turnOnClicked' }, { type: 'permissionAnswered', permission: 'granted' }],
      'saving',
    ],
    [
      'says so when the parent blocks notifications',
      [{ type: 'turnOnClicked' }, { type: 'permissionAnswered', permission: 'denied' }],
      'denied',
    ],
    [
      'a dismissed prompt is not a yes',
      [{ type: 'turnOnClicked' }, { type: 'permissionAnswered', permission: 'default' }],
      'denied',
    ],
    [
      'back to choosing once saved',
      [
        { type: 'turnOnClicked' },
        { type: 'permissionAnswered', permission: 'granted' },
        { type: 'saved' },
      ],
      'choosing',
    ],
    [
      'a failure is shown',
      [
        { type: 'turnOnClicked' },
        { type: 'permissionAnswered', permission: 'granted' },
        { type: 'failed', message: 'no' },
      ],
      'failed',
    ],
    [
      'an answer without a question changes nothing',
      [{ type: 'permissionAnswered', permission: 'granted' }],
      'choosing',
    ],
  ])('%s', (_name, events, phase) => {
    expect(run(events).phase).toBe(phase);
  });

  test('unlock and suspension requests by default; toggling chooses, never while asking', () => {
    expect(initialPushMethod.triggers).toEqual([
      'unlockRequestSubmitted',
      'suspendFilterRequestSubmitted',
    ]);
    const chosen = run([
      { type: 'triggerToggled', trigger: 'unlockRequestSubmitted' },
      { type: 'triggerToggled', trigger: 'adminChildSecurityEvent' },
    ]);
    expect(chosen.triggers).toEqual(['suspendFilterRequestSubmitted', 'adminChildSecurityEvent']);
    const asking = run([{ type: 'turnOnClicked' }], chosen);
    expect(run([{ type: 'triggerToggled', trigger: 'unlockRequestSubmitted' }], asking)).toBe(
      asking,
    );
  });

  test('nothing chosen: the button does nothing', () => {
    const none = run([
      { type: 'triggerToggled', trigger: 'unlockRequestSubmitted' },
      { type: 'triggerToggled', trigger: 'suspendFilterRequestSubmitted' },
      { type: 'turnOnClicked' },
    ]);
    expect(none.phase).toBe('choosing');
  });
});

describe('browserLabel', () => {
  test.each([
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iPhone',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on Windows',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    ['curl/8.0', 'Browser'],
  ])('%s', (userAgent, label) => {
    expect(browserLabel(userAgent)).toBe(label);
  });
});

test('the VAPID key becomes the bytes of applicationServerKey', () => {
  const bytes = new Uint8Array([4, 251, 255, 0, 62, 63]);
  const encoded = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  expect([...base64UrlToBytes(encoded)]).toEqual([...bytes]);
});
