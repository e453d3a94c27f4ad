import { DEFAULT_ACTIVE_SCHEDULE } from '@keyward/domain/schedule';
import { describe, expect, test } from 'vitest';
import { changeAssignments, type KeychainAssignment } from './child-keychains';

const A = '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706';
const B = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
const list: KeychainAssignment[] = [{ id: A }, { id: B, schedule: DEFAULT_ACTIVE_SCHEDULE }];

describe('changeAssignments', () => {
  test('adds a keychain once, with its optional schedule', () => {
    const added = changeAssignments([{ id: A }], {
      type: 'added',
      assignment: { id: B, schedule: DEFAULT_ACTIVE_SCHEDULE },
    });
    expect(added).toEqual(list);
    expect(changeAssignments(added, { type: 'added', assignment: { id: A } })).toEqual(list);
  });

  test('removes a keychain', () => {
    expect(changeAssignments(list, { type: 'removed', id: A })).toEqual([list[1]]);
  });

  test('adds the default active schedule and removes it', () => {
    const scheduled = changeAssignments(list, { type: 'scheduleAdded', id: A });
    expect(scheduled[0]).toEqual({ id: A, schedule: DEFAULT_ACTIVE_SCHEDULE });
    expect(changeAssignments(scheduled, { type: 'scheduleRemoved', id: A })[0]).toEqual({ id: A });
  });

  test('switches the mode, toggles days and clamps the window of one keychain only', () => {
    let next = changeAssignments(list, { type: 'scheduleModeChanged', id: B, mode: 'inactive' });
    next = changeAssignments(next, { type: 'scheduleDayToggled', id: B, day: 'sunday' });
    next = changeAssignments(next, {
      type: 'scheduleWindowChanged',
      id: B,
      window: { start: { hour: 8, minute: 30 }, end: { hour: 30, minute: 99 } },
    });
    expect(next[1]?.schedule).toEqual({
      mode: 'inactive',
      days: { ...DEFAULT_ACTIVE_SCHEDULE.days, sunday: false },
      window: { start: { hour: 8, minute: 30 }, end: { hour: 23, minute: 59 } },
    });
    expect(next[0]).toEqual({ id: A });
    // a keychain without a schedule ignores schedule edits
    expect(
      changeAssignments(list, { type: 'scheduleModeChanged', id: A, mode: 'inactive' }),
    ).toEqual(list);
  });
});
