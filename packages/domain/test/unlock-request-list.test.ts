import type { UnlockRequest } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { sortUnlockRequests, unlockRequestTarget } from '../src/unlock-request-list.ts';

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
