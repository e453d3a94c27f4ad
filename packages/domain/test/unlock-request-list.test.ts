import type { UnlockRequest } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  mergeUnlockRequestPages,
  parseUnlockRequestCursor,
  sortUnlockRequests,
  unlockRequestCursor,
  unlockRequestTarget,
} from '../src/unlock-request-list.ts';

const request = (overrides: Partial<UnlockRequest>): UnlockRequest => ({
  id: '8d7f3a52-4c5e-4d8e-9a3b-2f1e0c9d8b7a',
  userId: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9',
  userName: 'Lily',
  status: 'pending',
  appCategories: [],
  createdAt: '2024-03-04T12:00:00.000Z',
  ...overrides,
});

describe('unlockRequestTarget', () => {
  test.each<[Partial<UnlockRequest>, string]>([
    [{ url: 'https://a.example.com/x', domain: 'a.example.com' }, 'https://a.example.com/x'],
    [{ domain: 'a.example.com', ipAddress: '1.2.3.4' }, 'a.example.com'],
    [{ ipAddress: '1.2.3.4', appName: 'Zoom' }, '1.2.3.4'],
    [{ appName: 'Zoom', appBundleId: 'us.zoom.xos' }, 'Zoom'],
    [{ appBundleId: 'us.zoom.xos' }, 'us.zoom.xos'],
    [{ url: ' ' }, 'Unknown'],
  ])('%j → %j', (fields, expected) => {
    expect(unlockRequestTarget(request(fields))).toBe(expected);
  });
});

describe('sortUnlockRequests', () => {
  const at = (id: string, status: UnlockRequest['status'], hour: number) => ({
    id,
    status,
    createdAt: `2025-06-01T${String(hour).padStart(2, '0')}:00:00.000Z`,
  });
  test.each<[string, ReturnType<typeof at>[], string[]]>([
    ['empty', [], []],
    [
      'pending first, newest first within each group',
      [
        at('a', 'accepted', 9),
        at('b', 'pending', 8),
        at('c', 'rejected', 11),
        at('d', 'pending', 10),
      ],
      ['d', 'b', 'c', 'a'],
    ],
    ['only decided ones', [at('a', 'rejected', 1), at('b', 'accepted', 2)], ['b', 'a']],
  ])('%s', (_name, input, ids) => {
    expect(sortUnlockRequests(input).map((request) => request.id)).toEqual(ids);
  });
});

describe('unlock request cursors', () => {
  const id = '8d7f3a52-4c5e-4d8e-9a3b-2f1e0c9d8b7a';
  const createdAt = '2025-06-01T11:55:00.000Z';
  test.each<[UnlockRequest['status'], string, boolean]>([
    ['pending', `p~${createdAt}~${id}`, true],
    ['accepted', `d~${createdAt}~${id}`, false],
    ['rejected', `d~${createdAt}~${id}`, false],
  ])('%s → %s and back', (status, text, isPending) => {
    expect(unlockRequestCursor({ id, status, createdAt })).toBe(text);
    expect(parseUnlockRequestCursor(text)).toEqual({ isPending, createdAt, id });
  });

  test.each([
    '',
    'p',
    `x~${createdAt}~${id}`,
    `p~2025-06-01T11:55:00Z~${id}`,
    `p~2025-13-45T11:55:00.000Z~${id}`,
    `p~${createdAt}~${id.toUpperCase()}`,
    `p~${createdAt}~${id}~more`,
    `p~${createdAt}~not-a-uuid`,
    `p~${createdAt}~${id}' OR 1=1 --`,
  ])('%j is not a cursor', (text) => {
    expect(parseUnlockRequestCursor(text)).toBeUndefined();
  });
});

describe('mergeUnlockRequestPages', () => {
  const at = (id: string, status: UnlockRequest['status'], hour: number) => ({
    id,
    status,
    createdAt: `2025-06-01T${String(hour).padStart(2, '0')}:00:00.000Z`,
  });
  test.each<[string, ReturnType<typeof at>[][], [string, string][]]>([
    ['no pages', [], []],
    [
      'pages in order',
      [[at('p1', 'pending', 9), at('d1', 'accepted', 8)], [at('d2', 'rejected', 7)]],
      [
        ['p1', 'pending'],
        ['d1', 'accepted'],
        ['d2', 'rejected'],
      ],
    ],
    [
      'a request in two pages once, as the later page has it',
      [[at('p1', 'pending', 9), at('d1', 'accepted', 8)], [at('p1', 'accepted', 9)]],
      [
        ['p1', 'accepted'],
        ['d1', 'accepted'],
      ],
    ],
  ])('%s', (_name, pages, expected) => {
    expect(mergeUnlockRequestPages(pages).map((r) => [r.id, r.status])).toEqual(expected);
  });
});
