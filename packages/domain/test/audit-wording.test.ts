import { describe, expect, test } from 'vitest';
import { entityWords, operationWords } from '../src/audit-wording.ts';

describe('the audit log in words (issue 20)', () => {
  test.each<[string, string]>([
    ['InviteParent', 'Invited a co-parent'],
    ['DeleteActivityItems_v2', 'Deleted activity'],
    ['SaveUser', 'Saved a child'],
    ['UpdateUnlockRequest', 'Answered an unlock request'],
    ['ToggleChildKeychain', "Changed a child's keychains"],
    ['SomeFutureOperation_v3', 'Some future operation'],
  ])('%s → %s', (operation, expected) => {
    expect(operationWords(operation)).toBe(expected);
  });

  test.each<[string, string]>([
    ['coParent', 'co-parent'],
    ['iosDevice', 'iPad or iPhone'],
    ['blockRule', 'block rule'],
    ['notificationMethod', 'notification method'],
    ['child', 'child'],
  ])('%s → %s', (entityType, expected) => {
    expect(entityWords(entityType)).toBe(expected);
  });
});
