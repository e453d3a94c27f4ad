import type { RuleSchedule } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { childOf, keychainOf } from '../children/test-fixtures';
import {
  type AssignmentInfo,
  assignMenuReducer,
  assignmentInfo,
  assignmentSchedulesOf,
  initialAssignMenuState,
  needsConfirmation,
} from './assign-menu';
import { EMMA_ID, GAMES_ID, LEO_ID, SCHOOL_ID } from './test-fixtures';

const WEEKDAYS: RuleSchedule = {
  mode: 'active',
  days: {
    sunday: false,
    monday: true,
    tuesday: true,
    wednesday: true,
    thursday: true,
    friday: true,
    saturday: false,
  },
  window: { start: { hour: 15, minute: 0 }, end: { hour: 19, minute: 0 } },
};

const schedules = assignmentSchedulesOf([
  childOf({ id: EMMA_ID, keychains: [{ ...keychainOf(SCHOOL_ID, 1), schedule: WEEKDAYS }] }),
  childOf({ id: LEO_ID, keychains: [keychainOf(SCHOOL_ID, 1)] }),
]);

describe('what the list knows of an assignment', () => {
  test.each<[string, string[], string, AssignmentInfo]>([
    ['scheduled', [EMMA_ID, LEO_ID], EMMA_ID, { type: 'scheduled', schedule: WEEKDAYS }],
    ['always', [EMMA_ID, LEO_ID], LEO_ID, { type: 'always' }],
    ['not assigned', [LEO_ID], EMMA_ID, { type: 'notAssigned' }],
  ])('%s', (_case, assigned, childId, expected) => {
    expect(assignmentInfo(schedules, assigned, childId, SCHOOL_ID)).toEqual(expected);
  });

  test('assigned, but the children did not load (or are behind): unknown', () => {
    expect(assignmentInfo({}, [EMMA_ID], EMMA_ID, SCHOOL_ID)).toEqual({ type: 'unknown' });
    expect(assignmentInfo(schedules, [EMMA_ID], EMMA_ID, GAMES_ID)).toEqual({ type: 'unknown' });
  });

  test.each<[AssignmentInfo, boolean]>([
    [{ type: 'notAssigned' }, false],
    [{ type: 'always' }, false],
    [{ type: 'scheduled', schedule: WEEKDAYS }, true],
    [{ type: 'unknown' }, true],
  ])('%j asks first: %s', (info, expected) => {
    expect(needsConfirmation(info)).toBe(expected);
  });
});

describe('assign menu', () => {
  const opened = assignMenuReducer(initialAssignMenuState, { type: 'menuToggled' });

  test('removing a scheduled assignment waits for confirmation, with its schedule', () => {
    const asking = assignMenuReducer(opened, {
      type: 'removalRequested',
      childId: EMMA_ID,
      childName: 'Emma',
      info: { type: 'scheduled', schedule: WEEKDAYS },
    });
    expect(asking.pendingRemoval).toEqual({
      childId: EMMA_ID,
      childName: 'Emma',
      schedule: WEEKDAYS,
    });
    expect(asking.isOpen).toBe(true);
    expect(assignMenuReducer(asking, { type: 'removalCancelled' }).pendingRemoval).toBeUndefined();
    expect(assignMenuReducer(asking, { type: 'removalConfirmed' }).pendingRemoval).toBeUndefined();
    // closing the menu does not answer the question
    expect(assignMenuReducer(asking, { type: 'menuClosed' }).pendingRemoval).toBeDefined();
  });

  test('an unknown schedule still asks, without claiming one', () => {
    const asking = assignMenuReducer(opened, {
      type: 'removalRequested',
      childId: EMMA_ID,
      childName: 'Emma',
      info: { type: 'unknown' },
    });
    expect(asking.pendingRemoval).toEqual({ childId: EMMA_ID, childName: 'Emma' });
  });

  test('an always-active assignment needs no question', () => {
    const state = assignMenuReducer(opened, {
      type: 'removalRequested',
      childId: LEO_ID,
      childName: 'Leo',
      info: { type: 'always' },
    });
    expect(state).toBe(opened);
  });
});
