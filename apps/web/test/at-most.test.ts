import { afterEach, expect, test, vi } from 'vitest';
import { atMost } from '../src/lib/at-most';

afterEach(() => vi.useRealTimers());

test.each<[string, (resolve: () => void, reject: (e: Error) => void) => void, number]>([
  ['settles with a promise that is fulfilled first', (resolve) => setTimeout(resolve, 100), 100],
  [
    'settles with a promise that is rejected first',
    (_r, reject) => setTimeout(() => reject(new Error('no')), 100),
    100,
  ],
  ['settles after the limit when the promise stalls', () => {}, 1000],
])('%s', async (_name, run, settledAt) => {
  vi.useFakeTimers();
  const started = Date.now();
  let settled: number | undefined;
  void atMost(1000, new Promise<void>(run)).then(() => {
    settled = Date.now() - started;
  });
  await vi.advanceTimersByTimeAsync(5000);
  expect(settled).toBe(settledAt);
});
