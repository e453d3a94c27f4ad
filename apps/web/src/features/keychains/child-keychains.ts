import type { PlainTimeWindow, RuleSchedule } from '@keyward/contract/shared';
import {
  clampTime,
  DEFAULT_ACTIVE_SCHEDULE,
  toggleDay,
  type Weekday,
} from '@keyward/domain/schedule';

// Edits of a child's keychain assignments (the `keychains` of SaveUser), as pure list updates.

export type KeychainAssignment = { id: string; schedule?: RuleSchedule };

export type AssignmentChange =
  | { type: 'added'; assignment: KeychainAssignment }
  | { type: 'removed'; id: string }
  | { type: 'scheduleAdded'; id: string }
  | { type: 'scheduleRemoved'; id: string }
  | { type: 'scheduleModeChanged'; id: string; mode: RuleSchedule['mode'] }
  | { type: 'scheduleDayToggled'; id: string; day: Weekday }
  | { type: 'scheduleWindowChanged'; id: string; window: PlainTimeWindow };

function updateSchedule(
  assignment: KeychainAssignment,
  update: (schedule: RuleSchedule) => RuleSchedule,
): KeychainAssignment {
  return assignment.schedule
    ? { ...assignment, schedule: update(assignment.schedule) }
    : assignment;
}

function applyTo(assignment: KeychainAssignment, change: AssignmentChange): KeychainAssignment {
  switch (change.type) {
    case 'scheduleAdded':
      return { ...assignment, schedule: assignment.schedule ?? DEFAULT_ACTIVE_SCHEDULE };
    case 'scheduleRemoved':
      return { id: assignment.id };
    case 'scheduleModeChanged':
      return updateSchedule(assignment, (schedule) => ({ ...schedule, mode: change.mode }));
    case 'scheduleDayToggled':
      return updateSchedule(assignment, (schedule) => toggleDay(schedule, change.day));
    case 'scheduleWindowChanged':
      return updateSchedule(assignment, (schedule) => ({
        ...schedule,
        window: { start: clampTime(change.window.start), end: clampTime(change.window.end) },
      }));
    default:
      return assignment;
  }
}

export function changeAssignments(
  keychains: readonly KeychainAssignment[],
  change: AssignmentChange,
): KeychainAssignment[] {
  switch (change.type) {
    case 'added':
      if (keychains.some((keychain) => keychain.id === change.assignment.id)) return [...keychains];
      return [...keychains, change.assignment];
    case 'removed':
      return keychains.filter((keychain) => keychain.id !== change.id);
    default:
      return keychains.map((keychain) =>
        keychain.id === change.id ? applyTo(keychain, change) : keychain,
      );
  }
}
