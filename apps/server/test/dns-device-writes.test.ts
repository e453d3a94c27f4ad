import { describe, expect, test } from 'vitest';
import { Cadence, chunksOf, writeInChunks } from '../src/dns/device-writes.ts';

// Issue 33: how Keyward DNS groups its background writes over devices (dns/device-writes.ts).

describe('chunksOf', () => {
  test.each([
    { weights: [], size: 200, chunks: [] },
    { weights: [3, 3, 3], size: 200, chunks: [[3, 3, 3]] },
    { weights: [150, 60, 10, 200, 1], size: 200, chunks: [[150, 60], [10, 200], [1]] },
    { weights: [500], size: 200, chunks: [[500]] },
    { weights: [1, 1, 1, 1, 1], size: 2, chunks: [[1, 1], [1, 1], [1]] },
  ])('weights $weights by $size', ({ weights, size, chunks }) => {
    const devices = weights.map((weight, i): [string, number] => [`d${i}`, weight]);
    expect(
      chunksOf(devices, size, (weight) => weight).map((chunk) => chunk.map(([, w]) => w)),
    ).toEqual(chunks);
  });
});

describe('writeInChunks', () => {
  test('a chunk that fails is written device by device; only the failing device is dropped', async () => {
    const written: string[][] = [];
    const dropped: string[] = [];
    await writeInChunks(
      [
        [
          ['a', 1],
          ['b', 1],
        ],
        [
          ['c', 1],
          ['gone', 1],
          ['d', 1],
        ],
      ],
      async (devices) => {
        if (devices.some(([id]) => id === 'gone')) throw new Error('FOREIGN KEY constraint failed');
        written.push(devices.map(([id]) => id));
      },
      ([id]) => dropped.push(id),
    );
    expect(written).toEqual([['a', 'b'], ['c'], ['d']]);
    expect(dropped).toEqual(['gone']);
  });
});

describe('Cadence', () => {
  test('due at first, then again between half and one and a half of its period, spread', () => {
    const cadence = new Cadence(60_000);
    const points: number[] = [];
    for (let i = 0; i < 200; i++) {
      const id = `device${i}`;
      expect(cadence.isDue(id, 0)).toBe(true);
      cadence.done(id, 0);
      expect(cadence.isDue(id, 29_999)).toBe(false);
      let at = 30_000;
      while (!cadence.isDue(id, at)) at += 100;
      points.push(at);
    }
    expect(Math.min(...points)).toBeGreaterThanOrEqual(30_000);
    expect(Math.max(...points)).toBeLessThanOrEqual(90_100);
    expect(Math.max(...points) - Math.min(...points)).toBeGreaterThan(30_000);
  });

  test('bounded: past its most devices, the longest-known is due again', () => {
    const cadence = new Cadence(60_000, 2);
    for (const id of ['a', 'b', 'c']) cadence.done(id, 0);
    expect(cadence.isDue('a', 1)).toBe(true);
    expect(cadence.isDue('b', 1)).toBe(false);
    expect(cadence.isDue('c', 1)).toBe(false);
  });
});
