import { OPERATIONS_IN_WORDS } from '@keyward/domain/audit-wording';
import { describe, expect, test } from 'vitest';
import { AUDITED_OPERATIONS } from '../src/audit/operations.ts';
import { summarise } from '../src/audit/record.ts';

// issue 20: the audit log speaks a parent's words, not operation or table names
describe('audit log wording', () => {
  test('every audited operation has words of its own', () => {
    expect(OPERATIONS_IN_WORDS).toEqual(expect.arrayContaining(Object.keys(AUDITED_OPERATIONS)));
  });

  test.each<[string, string, string]>([
    ['InviteParent', 'coParent', 'dana@example.com added co-parent sam@example.com'],
    ['UpdateIOSDevice', 'iosDevice', "dana@example.com added iPad or iPhone Sam's iPad"],
  ])('%s on a %s', (operation, entityType, expected) => {
    const label = entityType === 'coParent' ? 'sam@example.com' : "Sam's iPad";
    expect(
      summarise({
        who: 'dana@example.com',
        operation,
        entityType,
        before: undefined,
        after: { label, fields: {} },
        changes: [],
        description: undefined,
      }),
    ).toBe(expected);
  });

  test('a change with nothing before or after is said in words, not by its operation name', () => {
    expect(
      summarise({
        who: 'dana@example.com',
        operation: 'DeleteActivityItems_v2',
        entityType: 'activity',
        before: undefined,
        after: undefined,
        changes: [],
        description: undefined,
      }),
    ).toBe('dana@example.com deleted activity');
  });
});
