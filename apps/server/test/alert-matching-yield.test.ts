import { BUILT_IN_ALERT_CATEGORIES } from '@keyward/domain/alert-categories';
import { describe, expect, test } from 'vitest';
import { ALERT_MATCH_SLICE_CHARACTERS, alertsOfLines } from '../src/activity/alerts.ts';

// Issue 31, finding 2: alert matching runs on the request thread, so a long batch gives the event
// loop back as it goes. Before: a batch was matched in one go (a line of 10,000 × U+FDFA cost
// ~140 ms, and a batch held 1,000 lines), and another family's GetUsers p50 went from 55 ms to
// 1,868 ms while one device sent such batches.

const settings = { categories: [...BUILT_IN_ALERT_CATEGORIES] };

describe('alertsOfLines', () => {
  test('a batch of 40 lines of 10,000 characters lets other work run between its slices', async () => {
    const lines = Array.from({ length: 40 }, (_, i) =>
      i === 39 ? 'i want to kill myself' : '\uFDFA'.repeat(10_000),
    );
    let otherWorkRan = 0;
    let running = true;
    const other = (async () => {
      while (running) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        otherWorkRan += 1;
      }
    })();
    const alerts = await alertsOfLines(lines, settings);
    running = false;
    await other;
    const slices = Math.floor((39 * 10_000) / ALERT_MATCH_SLICE_CHARACTERS);
    expect(otherWorkRan).toBeGreaterThanOrEqual(slices - 1);
    expect(alerts.slice(0, 39).every((alert) => alert === null)).toBe(true);
    expect(alerts[39]).toEqual({ category: 'selfHarm', words: ['kill myself'] });
  });

  test('a short batch is matched in one go, and nothing is matched without settings', async () => {
    expect(await alertsOfLines(['i want to die', 'hello'], settings)).toEqual([
      { category: 'selfHarm', words: ['want to die'] },
      null,
    ]);
    expect(await alertsOfLines(['i want to die'], null)).toEqual([null]);
  });
});
