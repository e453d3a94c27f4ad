import { describe, expect, test } from 'vitest';
import {
  acceptInput,
  denyInput,
  initialDecisionState,
  remainingAcceptCalls,
  type SaveKeyInput,
  type UnlockRequestDecisionEvent,
  type UnlockRequestDecisionState,
  unlockRequestDecisionReducer,
} from './unlock-request-decision';

const REQUEST_ID = '8d7f3a52-4c5e-4d8e-9a3b-2f1e0c9d8b7a';
const key = (id: string): SaveKeyInput => ({
  isNew: true,
  id,
  keychainId: '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706',
  key: { type: 'domain', domain: 'example.com', scope: { type: 'webBrowsers' } },
});
const KEY_A = key('aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa');
const KEY_B = key('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb');

function run(...events: UnlockRequestDecisionEvent[]): UnlockRequestDecisionState {
  return events.reduce(unlockRequestDecisionReducer, initialDecisionState);
}

describe('accepting', () => {
  test('saves the key, then accepts the request', () => {
    const submitted = run({ type: 'acceptSubmitted', key: KEY_A });
    expect(submitted.phase).toBe('accepting');
    expect(remainingAcceptCalls(submitted)).toEqual(['saveKey', 'acceptRequest']);
    const saved = unlockRequestDecisionReducer(submitted, { type: 'keySaved' });
    expect(remainingAcceptCalls(saved)).toEqual(['acceptRequest']);
    expect(unlockRequestDecisionReducer(saved, { type: 'acceptSucceeded' }).phase).toBe('accepted');
    // issue 32: the server gives the child the keychain the key went into
    expect(acceptInput(REQUEST_ID, KEY_A)).toEqual({
      id: REQUEST_ID,
      status: 'accepted',
      keychainId: KEY_A.keychainId,
    });
  });

  test('a failure after the key was saved retries only the accept', () => {
    const failed = run(
      { type: 'acceptSubmitted', key: KEY_A },
      { type: 'keySaved' },
      { type: 'acceptFailed', message: 'Network down' },
    );
    expect(failed).toMatchObject({ phase: 'acceptFailed', error: 'Network down' });
    const retried = unlockRequestDecisionReducer(failed, { type: 'tryAgainClicked' });
    expect(retried).toMatchObject({
      phase: 'accepting',
      error: undefined,
      key: KEY_A,
      isRetry: true,
    });
    expect(remainingAcceptCalls(retried)).toEqual(['acceptRequest']);
  });

  test('a failed key save retries both calls', () => {
    const failed = run(
      { type: 'acceptSubmitted', key: KEY_A },
      { type: 'acceptFailed', message: 'Bad key' },
      { type: 'tryAgainClicked' },
    );
    expect(remainingAcceptCalls(failed)).toEqual(['saveKey', 'acceptRequest']);
  });

  test('a different key must be saved again', () => {
    const state = run(
      { type: 'acceptSubmitted', key: KEY_A },
      { type: 'keySaved' },
      { type: 'acceptFailed', message: 'x' },
      { type: 'acceptSubmitted', key: KEY_B },
    );
    expect(remainingAcceptCalls(state)).toEqual(['saveKey', 'acceptRequest']);
  });

  test('a second submit while one is under way is ignored', () => {
    const state = run({ type: 'acceptSubmitted', key: KEY_A }, { type: 'denySubmitted' });
    expect(state.phase).toBe('accepting');
  });
});

describe('denying', () => {
  test.each<[string, object]>([
    ['', { id: REQUEST_ID, status: 'rejected' }],
    ['   ', { id: REQUEST_ID, status: 'rejected' }],
    [' Not today ', { id: REQUEST_ID, status: 'rejected', responseComment: 'Not today' }],
  ])('comment %j → %j', (comment, expected) => {
    expect(denyInput(REQUEST_ID, run({ type: 'denyCommentChanged', comment }))).toEqual(expected);
  });

  test('fails, then succeeds on Try again', () => {
    const failed = run({ type: 'denySubmitted' }, { type: 'denyFailed', message: 'Oops' });
    expect(failed).toMatchObject({ phase: 'denyFailed', error: 'Oops' });
    const retried = unlockRequestDecisionReducer(failed, { type: 'tryAgainClicked' });
    expect(retried).toMatchObject({ phase: 'denying', isRetry: true });
    expect(unlockRequestDecisionReducer(retried, { type: 'denySucceeded' }).phase).toBe('denied');
  });

  test('Try again does nothing when nothing failed', () => {
    expect(run({ type: 'tryAgainClicked' })).toEqual(initialDecisionState);
  });
});

describe('a request decided first by someone else (issue 19)', () => {
  const MESSAGE = 'This unlock request was already denied.';

  test.each<[string, UnlockRequestDecisionEvent[]]>([
    ['an accept before the key was saved', [{ type: 'acceptSubmitted', key: KEY_A }]],
    [
      'an accept after the key was saved',
      [{ type: 'acceptSubmitted', key: KEY_A }, { type: 'keySaved' }],
    ],
    ['a deny', [{ type: 'denySubmitted' }]],
  ])('%s ends there, with the message and nothing to retry', (_what, events) => {
    const ended = run(...events, { type: 'decidedBefore', message: MESSAGE });
    expect(ended).toMatchObject({ phase: 'alreadyDecided', error: MESSAGE });
    expect(unlockRequestDecisionReducer(ended, { type: 'tryAgainClicked' })).toBe(ended);
  });

  test('an idle page ignores it', () => {
    expect(run({ type: 'decidedBefore', message: MESSAGE })).toEqual(initialDecisionState);
  });
});
