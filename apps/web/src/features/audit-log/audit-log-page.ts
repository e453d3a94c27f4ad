import type { DashboardInput } from '@keyward/contract/dashboard';

// The audit log page (issue 12): filters by person and child, and paging through `nextBefore`.
// Screen logic as a reducer of named events; the page renders it.

export type AuditLogPageState = {
  personId?: string;
  childId?: string;
  /** the cursors of the pages before the current one (empty = the newest page) */
  cursors: string[];
};

export type AuditLogPageEvent =
  | { type: 'personChosen'; personId?: string }
  | { type: 'childChosen'; childId?: string }
  | { type: 'olderClicked'; nextBefore: string }
  | { type: 'newerClicked' };

export const initialAuditLogPageState: AuditLogPageState = { cursors: [] };

export function auditLogPageReducer(
  state: AuditLogPageState,
  event: AuditLogPageEvent,
): AuditLogPageState {
  switch (event.type) {
    case 'personChosen':
      // a new filter starts again from the newest entries
      return { ...state, personId: event.personId || undefined, cursors: [] };
    case 'childChosen':
      return { ...state, childId: event.childId || undefined, cursors: [] };
    case 'olderClicked':
      return { ...state, cursors: [...state.cursors, event.nextBefore] };
    case 'newerClicked':
      return { ...state, cursors: state.cursors.slice(0, -1) };
  }
}

/** The GetAuditLog input of the page the state shows. */
export function auditLogInput(state: AuditLogPageState): DashboardInput<'GetAuditLog'> {
  const before = state.cursors.at(-1);
  return {
    ...(before ? { before } : {}),
    ...(state.personId ? { personId: state.personId } : {}),
    ...(state.childId ? { childId: state.childId } : {}),
  };
}

export const canGoNewer = (state: AuditLogPageState) => state.cursors.length > 0;
