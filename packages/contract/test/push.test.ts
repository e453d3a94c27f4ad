import { describe, expect, test } from 'vitest';
import { PUSH_DECIDE_PATH, PushDecideInput, PushMessage } from '../src/push.ts';

describe('PushDecideInput', () => {
  test.each<[string, unknown, boolean]>([
    ['allow 15 minutes', { token: 'abc.def', action: 'allow15' }, true],
    ['deny', { token: 'abc.def', action: 'deny' }, true],
    ['an action no notification offers', { token: 'abc.def', action: 'maybe' }, false],
    ['no token', { action: 'deny' }, false],
    ['an empty token', { token: '', action: 'deny' }, false],
    ['a token longer than any minted', { token: 'x'.repeat(513), action: 'deny' }, false],
    ['not an object', 'deny', false],
  ])('%s', (_name, body, valid) => {
    expect(PushDecideInput.safeParse(body).success).toBe(valid);
  });
});

describe('PushMessage', () => {
  const message = {
    title: 'Suspension request from Sam',
    body: 'Sam asks to turn the filter off for 10 minutes.',
    tag: 'suspendFilterRequestSubmitted:child-1',
    url: '/children/child-1/suspend-filter-requests/request-1',
  };
  test.each<[string, unknown, boolean]>([
    ['words and a page', message, true],
    [
      'with its one-tap decisions',
      {
        ...message,
        actions: [
          { action: 'allow15', title: 'Allow 15 minutes' },
          { action: 'deny', title: 'Deny' },
        ],
        actionToken: 'abc.def',
        decideUrl: PUSH_DECIDE_PATH,
      },
      true,
    ],
    ['a page on another site', { ...message, url: 'https://example.com/' }, false],
    ['a decision sent elsewhere', { ...message, decideUrl: 'https://example.com/decide' }, false],
    ['no title', { ...message, title: '' }, false],
  ])('%s', (_name, body, valid) => {
    expect(PushMessage.safeParse(body).success).toBe(valid);
  });
});
