import type { PqlError } from '@keyward/contract/errors';
import type { UnlockRequest } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { type UnlockRequestPages, unlockRequestList } from './unlock-request-list';
import { unlockRequestOf } from './test-fixtures';

const request = (id: string, status: UnlockRequest['status'], minute: number) =>
  unlockRequestOf({
    id,
    status,
    createdAt: `2025-06-01T11:${String(minute).padStart(2, '0')}:00.000Z`,
  });
const failure: PqlError = {
  isPqlError: true,
  id: '34fbe3e3',
  type: 'clientError',
  debugMessage: 'fetch failed',
};
const read = (overrides: Partial<UnlockRequestPages>): UnlockRequestPages => ({
  pages: [],
  hasOlder: false,
  isLoadingOlder: false,
  olderError: null,
  ...overrides,
});

describe('unlockRequestList', () => {
  test.each<[string, UnlockRequestPages, string[], string]>([
    ['nothing read', read({}), [], 'none'],
    [
      'one page, the last',
      read({
        pages: [{ requests: [request('d1', 'accepted', 50), request('p1', 'pending', 10)] }],
      }),
      ['p1', 'd1'],
      'none',
    ],
    [
      'one page with older ones after it',
      read({
        pages: [{ requests: [request('p1', 'pending', 10)], nextBefore: 'p~x' }],
        hasOlder: true,
      }),
      ['p1'],
      'offered',
    ],
    [
      'two pages in order; a request moved between them shows once',
      read({
        pages: [
          {
            requests: [request('p1', 'pending', 10), request('d1', 'accepted', 50)],
            nextBefore: 'd~x',
          },
          { requests: [request('d1', 'accepted', 50), request('d2', 'rejected', 40)] },
        ],
      }),
      ['p1', 'd1', 'd2'],
      'none',
    ],
    [
      'reading the next page',
      read({
        pages: [{ requests: [request('p1', 'pending', 10)] }],
        hasOlder: true,
        isLoadingOlder: true,
      }),
      ['p1'],
      'loading',
    ],
    [
      'the next page failed',
      read({
        pages: [{ requests: [request('p1', 'pending', 10)] }],
        hasOlder: true,
        olderError: failure,
      }),
      ['p1'],
      'failed',
    ],
  ])('%s', (_name, input, ids, older) => {
    const list = unlockRequestList(input);
    expect(list.requests.map((r) => r.id)).toEqual(ids);
    expect(list.older.case).toBe(older);
  });
});
