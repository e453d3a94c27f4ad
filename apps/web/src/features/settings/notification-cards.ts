import type { AdminNotification, AdminNotificationTrigger } from '@keyward/contract/shared';
import { triggerReach } from '@keyward/domain/notifications';

// The notifications list (spec 'Settings'): cards toggle between viewing (Edit, Delete) and
// editing (method, trigger, Save, Cancel). A new notification starts in edit mode with the
// trigger suspendFilterRequestSubmitted, and is scrolled to and highlighted.

export const DEFAULT_TRIGGER: AdminNotificationTrigger = 'suspendFilterRequestSubmitted';

export const TRIGGER_LABELS: Record<AdminNotificationTrigger, string> = {
  suspendFilterRequestSubmitted: 'Suspension requests',
  unlockRequestSubmitted: 'Unlock requests',
  adminChildSecurityEvent: 'Admin-child security events',
  activityAlert: 'Alerts',
};

/** The triggers a parent may choose; the admin-child one only with an admin child. */
export function triggerOptions(
  hasAdminChild: boolean,
  current?: AdminNotificationTrigger,
): AdminNotificationTrigger[] {
  const options: AdminNotificationTrigger[] = [
    'suspendFilterRequestSubmitted',
    'unlockRequestSubmitted',
    // issue 24: typed text that matched a child's alerts
    'activityAlert',
  ];
  if (hasAdminChild || current === 'adminChildSecurityEvent')
    options.push('adminChildSecurityEvent');
  return options;
}

export type NotificationDraft = AdminNotification & { isNew: boolean };

export type NotificationCardsState = {
  /** Cards open for editing, by notification id (a new one is only here until saved). */
  drafts: Record<string, NotificationDraft>;
  /** The card to scroll to and highlight. */
  highlightedId?: string;
  savingId?: string;
};

export type NotificationCardsEvent =
  | { type: 'newNotificationClicked'; id: string; methodId: string }
  | { type: 'editClicked'; notification: AdminNotification }
  | { type: 'methodChanged'; id: string; methodId: string }
  | { type: 'triggerChanged'; id: string; trigger: AdminNotificationTrigger }
  | { type: 'cancelClicked'; id: string }
  | { type: 'saveClicked'; id: string }
  | { type: 'saveSucceeded'; id: string }
  | { type: 'saveFailed'; id: string };

export const initialNotificationCards: NotificationCardsState = { drafts: {} };

/** Saved notifications, then the new ones being written. */
export function visibleNotifications(
  saved: readonly AdminNotification[],
  state: NotificationCardsState,
): NotificationDraft[] {
  const savedIds = new Set(saved.map((notification) => notification.id));
  const newOnes = Object.values(state.drafts).filter(
    (draft) => draft.isNew && !savedIds.has(draft.id),
  );
  return [...saved.map((notification) => ({ ...notification, isNew: false })), ...newOnes];
}

export function isEditing(state: NotificationCardsState, id: string): boolean {
  return id in state.drafts;
}

function withoutDraft(state: NotificationCardsState, id: string): NotificationCardsState {
  const { [id]: _removed, ...drafts } = state.drafts;
  return { ...state, drafts, savingId: state.savingId === id ? undefined : state.savingId };
}

function updateDraft(
  state: NotificationCardsState,
  id: string,
  changes: Partial<NotificationDraft>,
): NotificationCardsState {
  const draft = state.drafts[id];
  if (!draft || state.savingId === id) return state;
  return { ...state, drafts: { ...state.drafts, [id]: { ...draft, ...changes } } };
}

export function notificationCardsReducer(
  state: NotificationCardsState,
  event: NotificationCardsEvent,
): NotificationCardsState {
  switch (event.type) {
    case 'newNotificationClicked':
      return {
        ...state,
        drafts: {
          ...state.drafts,
          [event.id]: {
            id: event.id,
            methodId: event.methodId,
            trigger: DEFAULT_TRIGGER,
            isNew: true,
          },
        },
        highlightedId: event.id,
      };
    case 'editClicked':
      return {
        ...state,
        drafts: {
          ...state.drafts,
          [event.notification.id]: { ...event.notification, isNew: false },
        },
      };
    case 'methodChanged':
      return updateDraft(state, event.id, { methodId: event.methodId });
    case 'triggerChanged':
      return updateDraft(state, event.id, { trigger: event.trigger });
    case 'cancelClicked':
      return state.savingId === event.id ? state : withoutDraft(state, event.id);
    case 'saveClicked':
      return state.drafts[event.id] && state.savingId === undefined
        ? { ...state, savingId: event.id }
        : state;
    case 'saveSucceeded':
      return withoutDraft(state, event.id);
    case 'saveFailed':
      return state.savingId === event.id ? { ...state, savingId: undefined } : state;
  }
}

// ---------------------------------------------------------------------------
// Issue 32: who each trigger reaches, as the server sends it (planDispatch): its own rules' methods,
// else the account email (alerts, unlock and suspension requests), else nobody.

export type TriggerReachRow = {
  trigger: AdminNotificationTrigger;
  label: string;
  /** "Text message: (415) 555-2671, Slack: #family", "your account email a@b.c (no rule of its own)" */
  reaches: string;
  /** true when the trigger reaches nobody or only the fallback email */
  withoutRule: boolean;
};

export function triggerReachRows({
  triggers,
  rules,
  methodLabels,
  accountEmail,
}: {
  triggers: readonly AdminNotificationTrigger[];
  /** the family's rules: email, text and Slack ones, and each push device's triggers */
  rules: readonly { trigger: AdminNotificationTrigger; methodId: string }[];
  /** what to call each method (a push device: "push to Chrome on Android") */
  methodLabels: ReadonlyMap<string, string>;
  accountEmail: string;
}): TriggerReachRow[] {
  return triggers.map((trigger) => {
    const reach = triggerReach(rules, trigger);
    const label = TRIGGER_LABELS[trigger];
    if (reach.kind === 'methods') {
      const names = reach.methodIds.map((id) => methodLabels.get(id) ?? 'a removed method');
      return { trigger, label, reaches: names.join(', '), withoutRule: false };
    }
    if (reach.kind === 'accountEmail') {
      return {
        trigger,
        label,
        reaches: `your account email ${accountEmail} (no notification of its own)`,
        withoutRule: true,
      };
    }
    return { trigger, label, reaches: 'nobody (add a notification for it)', withoutRule: true };
  });
}
