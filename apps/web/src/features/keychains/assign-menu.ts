import type { RuleSchedule, User } from '@keyward/contract/shared';

// The keychains list's children menu (ToggleChildKeychain). Turning a child off removes the
// assignment with its schedule, and turning it on again gives the keychain always (the server's
// documented behaviour), so a scheduled assignment is only removed after the parent confirms.

/** What the list knows of one child's assignment of one keychain. */
export type AssignmentInfo =
  | { type: 'notAssigned' }
  | { type: 'always' }
  | { type: 'scheduled'; schedule: RuleSchedule }
  /** Assigned, but the children's details (GetUsers) are not loaded: it may have a schedule. */
  | { type: 'unknown' };

export type AssignmentSchedules = {
  /** undefined while the children's details are unknown. */
  byChild?: ReadonlyMap<string, ReadonlyMap<string, RuleSchedule | undefined>>;
};

/** childId → keychainId → schedule (undefined = always), from GetUsers. */
export function assignmentSchedulesOf(users: readonly User[] | undefined): AssignmentSchedules {
  if (!users) return {};
  return {
    byChild: new Map(
      users.map((user) => [
        user.id,
        new Map(user.keychains.map((keychain) => [keychain.id, keychain.schedule])),
      ]),
    ),
  };
}

export function assignmentInfo(
  schedules: AssignmentSchedules,
  assignedChildren: readonly string[],
  childId: string,
  keychainId: string,
): AssignmentInfo {
  if (!assignedChildren.includes(childId)) return { type: 'notAssigned' };
  const ofChild = schedules.byChild?.get(childId);
  if (!ofChild?.has(keychainId)) return { type: 'unknown' };
  const schedule = ofChild.get(keychainId);
  return schedule ? { type: 'scheduled', schedule } : { type: 'always' };
}

export type PendingRemoval = {
  childId: string;
  childName: string;
  /** undefined when the schedule is not known (the details did not load). */
  schedule?: RuleSchedule;
};

/** Only a removal that may lose a schedule asks first; adding and removing an always one do not. */
export function needsConfirmation(info: AssignmentInfo): boolean {
  return info.type === 'scheduled' || info.type === 'unknown';
}

export type AssignMenuState = {
  isOpen: boolean;
  /** A removal waiting for the parent's confirmation. */
  pendingRemoval?: PendingRemoval;
};

export type AssignMenuEvent =
  | { type: 'menuToggled' }
  | { type: 'menuClosed' }
  | { type: 'removalRequested'; childId: string; childName: string; info: AssignmentInfo }
  | { type: 'removalConfirmed' }
  | { type: 'removalCancelled' };

export const initialAssignMenuState: AssignMenuState = { isOpen: false };

export function assignMenuReducer(state: AssignMenuState, event: AssignMenuEvent): AssignMenuState {
  switch (event.type) {
    case 'menuToggled':
      return { ...state, isOpen: !state.isOpen };
    case 'menuClosed':
      // The confirmation stays open on its own: closing the menu does not cancel it.
      return { ...state, isOpen: false };
    case 'removalRequested': {
      const { info, childId, childName } = event;
      if (!needsConfirmation(info)) return state;
      const schedule = info.type === 'scheduled' ? info.schedule : undefined;
      return {
        ...state,
        pendingRemoval: schedule ? { childId, childName, schedule } : { childId, childName },
      };
    }
    case 'removalConfirmed':
    case 'removalCancelled':
      return { ...state, pendingRemoval: undefined };
  }
}
