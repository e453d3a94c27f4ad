import { describe, expect, test } from 'vitest';
import { AnswerCache, type CachedAnswer, cacheKey } from '../src/dns/answer-cache.ts';

// Issue 33: when a cached answer is fetched again in the background (prefetch, docs/dns.md).

const answerWithTtl = (ttl: number): CachedAnswer => ({
  rcode: 0,
  answers: [{ type: 'A', name: 'example.org', ttl, data: '192.0.2.1' }],
  authorities: [],
  additionals: [],
  authenticData: false,
});

/** the first whole 10 ms from which the entry is near its end */
function prefetchPoint(cache: AnswerCache, key: string, storedAt: number, lifeMs: number) {
  for (let at = storedAt; at < storedAt + lifeMs; at += 10) {
    if (cache.isNearItsEnd(key, at)) return at - storedAt;
  }
  return undefined;
}

describe('AnswerCache prefetch points', () => {
  test.each([
    // TTL (s), the earliest and latest point (ms after it was stored)
    { ttl: 2, earliest: 1_000, latest: 1_000 },
    { ttl: 10, earliest: 9_000, latest: 9_000 },
    { ttl: 60, earliest: 54_000, latest: 57_000 },
    { ttl: 300, earliest: 270_000, latest: 285_000 },
  ])(
    'an answer of $ttl s is fetched again from $earliest–$latest ms',
    ({ ttl, earliest, latest }) => {
      const cache = new AnswerCache(300);
      const points: number[] = [];
      for (let i = 0; i < 200; i++) {
        const key = cacheKey(`name${i}.example.org`, 'A', 'IN', false, false);
        cache.put(key, answerWithTtl(ttl), 0);
        const point = prefetchPoint(cache, key, 0, ttl * 1000);
        expect(point).toBeDefined();
        points.push(point!);
      }
      expect(Math.min(...points)).toBeGreaterThanOrEqual(earliest);
      expect(Math.max(...points)).toBeLessThanOrEqual(latest + 10);
      if (latest > earliest) {
        // spread over the window, not all at once
        expect(Math.max(...points) - Math.min(...points)).toBeGreaterThan((latest - earliest) / 2);
        expect(new Set(points).size).toBeGreaterThan(50);
      }
    },
  );

  test('an expired or unknown answer is not near its end (it is a miss)', () => {
    const cache = new AnswerCache(60);
    const key = cacheKey('gone.example.org', 'A', 'IN', false, false);
    expect(cache.isNearItsEnd(key, 0)).toBe(false);
    cache.put(key, answerWithTtl(60), 0);
    expect(cache.isNearItsEnd(key, 60_000)).toBe(false);
  });
});
