import { describe, expect, test } from 'vitest';
import { dataExportWords } from './data-export';

describe('dataExportWords', () => {
  test.each([
    ['nothing asked yet', undefined, { progress: 0, isBuilding: false }],
    [
      'pending',
      { status: 'pending' as const, progress: 0 },
      { text: 'Preparing your data… 0%', isBuilding: true },
    ],
    [
      'building, rounded',
      { status: 'building' as const, progress: 41.6 },
      { text: 'Preparing your data… 42%', progress: 42, isBuilding: true },
    ],
    [
      'ready',
      { status: 'ready' as const, progress: 100, url: 'https://x/data-export/1' },
      { text: 'Your data is ready. The link was also emailed to you.', isBuilding: false },
    ],
    [
      'expired',
      { status: 'expired' as const, progress: 100 },
      { text: 'This download link has expired. Prepare a new copy.' },
    ],
    [
      'failed',
      { status: 'failed' as const, progress: 35 },
      { text: "We couldn't prepare your data. Please try again.", isBuilding: false },
    ],
  ])('%s', (_what, data, expected) => {
    expect(dataExportWords(data)).toMatchObject(expected);
  });
});
