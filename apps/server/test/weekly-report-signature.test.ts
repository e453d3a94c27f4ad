import { afterEach, describe, expect, test, vi } from 'vitest';

// Issue 31, finding 4: the weekly report's one-click stop compares its signature in constant time,
// like every other signature (it was `!==`). Node's timingSafeEqual is watched to see it is used.

const crypto = vi.hoisted(() => ({ calls: 0 }));
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return {
    ...original,
    timingSafeEqual: (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      crypto.calls += 1;
      return original.timingSafeEqual(a, b);
    },
  };
});

const { stopWeeklyReport } = await import('../src/jobs/weekly-report.ts');
const { createTokenService, safeEqual } = await import('../src/services/tokens.ts');

afterEach(() => {
  crypto.calls = 0;
});

describe('the weekly report’s unsubscribe signature', () => {
  const tokens = createTokenService({
    hmacKey: Buffer.alloc(32, 7),
    encryptionKey: Buffer.alloc(32, 8),
  });
  const parentId = '6f1c1a52-5b1e-4c53-9b59-000000000001';
  const updates: unknown[] = [];
  const db = {
    updateTable: () => ({
      set: (values: unknown) => ({
        where: () => ({
          execute: async () => {
            updates.push(values);
          },
        }),
      }),
    }),
  } as never;
  const genuine = tokens.hmac(`weekly-report-unsubscribe|${parentId}`);

  test('a genuine signature stops the report, compared in constant time', async () => {
    expect(await stopWeeklyReport({ db, tokens }, parentId, genuine, new Date())).toBe(true);
    expect(crypto.calls).toBe(1);
    expect(updates).toHaveLength(1);
  });

  test('a wrong one of the same length is refused, also in constant time', async () => {
    const wrong = `${genuine.slice(0, -1)}${genuine.endsWith('0') ? '1' : '0'}`;
    expect(await stopWeeklyReport({ db, tokens }, parentId, wrong, new Date())).toBe(false);
    expect(crypto.calls).toBe(1);
    expect(await stopWeeklyReport({ db, tokens }, parentId, 'short', new Date())).toBe(false);
  });

  test('safeEqual', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('é', 'e')).toBe(false);
  });
});
