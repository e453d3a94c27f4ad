import { describe, expect, test } from 'vitest';
import {
  childIdByName,
  homeSituation,
  nonMacDevicesByChild,
  pendingRequestsPreview,
  totalUnreviewed,
} from './home-situation';
import { KIM_ID, requestOf, SAM_ID } from './test-fixtures';

const child = (id: string, numDevices: number) => ({
  id,
  name: id === SAM_ID ? 'Sam' : 'Kim',
  status: { case: 'offline' as const },
  numDevices,
});

describe('homeSituation', () => {
  test.each([
    ['no children', [], 'welcome'],
    ['first child without computers', [child(SAM_ID, 0), child(KIM_ID, 1)], 'setup'],
    ['first child with a computer', [child(SAM_ID, 1), child(KIM_ID, 0)], 'overview'],
  ])('%s → %s', (_name, children, expected) => {
    expect(homeSituation({ children }).case).toBe(expected);
  });

  test('setup names the first child', () => {
    expect(homeSituation({ children: [child(KIM_ID, 0)] })).toEqual({
      case: 'setup',
      child: child(KIM_ID, 0),
    });
  });
});

describe('pendingRequestsPreview', () => {
  test.each([
    ['none', [], [], 0],
    ['one', [requestOf(1, 5)], [1], 0],
    [
      'newest two of four',
      [requestOf(1, 50), requestOf(2, 5), requestOf(4, 20), requestOf(5, 90)],
      [2, 4],
      2,
    ],
  ])('%s', (_name, requests, shownIds, numOlder) => {
    const preview = pendingRequestsPreview(requests);
    expect(preview.shown.map((request) => Number(request.id.at(-1)))).toEqual(shownIds);
    expect(preview.numOlder).toBe(numOlder);
  });
});

describe('totalUnreviewed and childIdByName', () => {
  test.each([
    [[], 0],
    [[{ id: SAM_ID, name: 'Sam', numUnreviewed: 4, numReviewed: 1 }], 4],
    [
      [
        { id: SAM_ID, name: 'Sam', numUnreviewed: 4, numReviewed: 1 },
        { id: KIM_ID, name: 'Kim', numUnreviewed: 7, numReviewed: 0 },
      ],
      11,
    ],
  ])('%j → %i', (summaries, expected) => {
    expect(totalUnreviewed(summaries)).toBe(expected);
  });

  test('finds the child of a screenshot by name', () => {
    const children = [child(SAM_ID, 1), child(KIM_ID, 1)];
    expect(childIdByName(children, 'Kim')).toBe(KIM_ID);
    expect(childIdByName(children, 'Nobody')).toBeUndefined();
  });
});

describe('nonMacDevicesByChild', () => {
  test.each([
    ['no answer yet', undefined, {}],
    ['a Mac: counted by the widgets already', [{ kind: 'mac', childId: SAM_ID }], {}],
    ['a browser: a computer user too, counted already', [{ kind: 'browser', childId: SAM_ID }], {}],
    [
      'an iPad and an iPhone',
      [
        { kind: 'ios', childId: SAM_ID },
        { kind: 'ios', childId: SAM_ID },
      ],
      { [SAM_ID]: 2 },
    ],
  ])('%s', (_name, devices, expected) => {
    expect(Object.fromEntries(nonMacDevicesByChild(devices))).toEqual(expected);
  });
});
