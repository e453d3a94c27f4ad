import type { AdminNotification } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { methodTarget } from './method-display';
import {
  initialNotificationCards,
  triggerReachRows,
  isEditing,
  type NotificationCardsEvent,
  type NotificationCardsState,
  notificationCardsReducer,
  TRIGGER_LABELS,
  triggerOptions,
  visibleNotifications,
} from './notification-cards';

const EMAIL = 'e0000000-0000-4000-8000-000000000001';
const SLACK = 'e0000000-0000-4000-8000-000000000002';
const SAVED: AdminNotification = {
  id: 'a0000000-0000-4000-8000-000000000001',
  trigger: 'unlockRequestSubmitted',
  methodId: EMAIL,
};
const NEW_ID = 'b0000000-0000-4000-8000-000000000001';

function run(...events: NotificationCardsEvent[]): NotificationCardsState {
  return events.reduce(notificationCardsReducer, initialNotificationCards);
}

describe('triggers', () => {
  test.each<[boolean, string | undefined, string[]]>([
    [false, undefined, ['Suspension requests', 'Unlock requests', 'Alerts']],
    [
      true,
      undefined,
      ['Suspension requests', 'Unlock requests', 'Alerts', 'Admin-child security events'],
    ],
    // a rule already on the admin-child trigger keeps its option
    [
      false,
      'adminChildSecurityEvent',
      ['Suspension requests', 'Unlock requests', 'Alerts', 'Admin-child security events'],
    ],
  ])('hasAdminChild %s, current %s → %j', (hasAdminChild, current, labels) => {
    expect(
      triggerOptions(hasAdminChild, current as never).map((trigger) => TRIGGER_LABELS[trigger]),
    ).toEqual(labels);
  });
});

describe('cards', () => {
  test('a new notification starts in edit mode on suspension requests, highlighted', () => {
    const state = run({ type: 'newNotificationClicked', id: NEW_ID, methodId: SLACK });
    expect(isEditing(state, NEW_ID)).toBe(true);
    expect(state.highlightedId).toBe(NEW_ID);
    expect(visibleNotifications([SAVED], state)).toEqual([
      { ...SAVED, isNew: false },
      { id: NEW_ID, methodId: SLACK, trigger: 'suspendFilterRequestSubmitted', isNew: true },
    ]);
  });

  test('cancelling a new card removes it; cancelling an edit restores the view', () => {
    expect(
      visibleNotifications(
        [],
        run(
          { type: 'newNotificationClicked', id: NEW_ID, methodId: SLACK },
          { type: 'cancelClicked', id: NEW_ID },
        ),
      ),
    ).toEqual([]);
    const edited = run(
      { type: 'editClicked', notification: SAVED },
      { type: 'triggerChanged', id: SAVED.id, trigger: 'suspendFilterRequestSubmitted' },
      { type: 'cancelClicked', id: SAVED.id },
    );
    expect(isEditing(edited, SAVED.id)).toBe(false);
  });

  test('edits change the draft; saving locks it; success returns to viewing', () => {
    const editing = run(
      { type: 'editClicked', notification: SAVED },
      { type: 'methodChanged', id: SAVED.id, methodId: SLACK },
      { type: 'saveClicked', id: SAVED.id },
    );
    expect(editing.drafts[SAVED.id]).toMatchObject({ methodId: SLACK, isNew: false });
    expect(editing.savingId).toBe(SAVED.id);
    const locked = notificationCardsReducer(editing, {
      type: 'triggerChanged',
      id: SAVED.id,
      trigger: 'adminChildSecurityEvent',
    });
    expect(locked).toBe(editing);
    const saved = notificationCardsReducer(editing, { type: 'saveSucceeded', id: SAVED.id });
    expect(isEditing(saved, SAVED.id)).toBe(false);
    expect(saved.savingId).toBeUndefined();
  });

  test('a failed save keeps the card in edit mode', () => {
    const state = run(
      { type: 'newNotificationClicked', id: NEW_ID, methodId: SLACK },
      { type: 'saveClicked', id: NEW_ID },
      { type: 'saveFailed', id: NEW_ID },
    );
    expect(isEditing(state, NEW_ID)).toBe(true);
    expect(state.savingId).toBeUndefined();
  });

  test('once saved, the new card is the saved notification (never shown twice)', () => {
    const state = run({ type: 'newNotificationClicked', id: NEW_ID, methodId: SLACK });
    const saved = {
      id: NEW_ID,
      methodId: SLACK,
      trigger: 'suspendFilterRequestSubmitted' as const,
    };
    expect(visibleNotifications([saved], state)).toHaveLength(1);
  });
});

describe('method display', () => {
  test.each<[Parameters<typeof methodTarget>[0], string]>([
    [{ case: 'email', email: 'mum@example.com' }, 'mum@example.com'],
    [{ case: 'text', phoneNumber: '+14155552671' }, '(415) 555-2671'],
    [{ case: 'text', phoneNumber: '+442071838750' }, '+442071838750'],
    [{ case: 'slack', channelName: 'family', channelId: 'C0123', token: 'xoxb-…a1b2' }, '#family'],
    [{ case: 'slack', channelName: '#alerts', channelId: 'C0123', token: 'xoxb-…a1b2' }, '#alerts'],
  ])('%j → %j', (config, expected) => {
    expect(methodTarget(config)).toBe(expected);
  });
});

describe('who each trigger reaches (issue 32)', () => {
  test('one suspension rule: alerts and unlock requests still reach the account email; security events nobody', () => {
    const rows = triggerReachRows({
      triggers: [
        'suspendFilterRequestSubmitted',
        'unlockRequestSubmitted',
        'activityAlert',
        'adminChildSecurityEvent',
      ],
      rules: [
        { trigger: 'suspendFilterRequestSubmitted', methodId: 'text' },
        { trigger: 'suspendFilterRequestSubmitted', methodId: 'push-1' },
      ],
      methodLabels: new Map([
        ['text', 'Text message: (415) 555-2671'],
        ['push-1', 'Push: Chrome on Android'],
      ]),
      accountEmail: 'pat@example.com',
    });
    expect(rows.map((row) => [row.label, row.reaches, row.withoutRule])).toEqual([
      ['Suspension requests', 'Text message: (415) 555-2671, Push: Chrome on Android', false],
      ['Unlock requests', 'your account email pat@example.com (no notification of its own)', true],
      ['Alerts', 'your account email pat@example.com (no notification of its own)', true],
      ['Admin-child security events', 'nobody (add a notification for it)', true],
    ]);
  });
});
