import type { AdminNotificationTrigger, NotificationMethodConfig } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  checkNotificationMethodConfig,
  isMethodDeletable,
  planDispatch,
  triggerReach,
} from '../src/notifications.ts';

type Rule = { id: string; trigger: AdminNotificationTrigger; methodId: string };
const rule = (id: string, trigger: AdminNotificationTrigger, methodId = `m-${id}`): Rule => ({
  id,
  trigger,
  methodId,
});
const UNLOCK = 'unlockRequestSubmitted';
const SUSPEND = 'suspendFilterRequestSubmitted';
const SECURITY = 'adminChildSecurityEvent';
const ALERT = 'activityAlert';

describe('planDispatch', () => {
  test.each<[string, Rule[], AdminNotificationTrigger, string | string[]]>([
    ['no rules, unlock request → fallback email', [], UNLOCK, 'fallbackEmail:none'],
    ['no rules, suspend request → fallback email', [], SUSPEND, 'fallbackEmail:none'],
    ['no rules, alert → fallback email', [], ALERT, 'fallbackEmail:none'],
    ['no rules, security event → nothing', [], SECURITY, 'nothing'],
    ['one matching rule', [rule('a', UNLOCK)], UNLOCK, ['a']],
    // issue 32: a rule for another trigger no longer silences this one
    [
      'a suspension rule only, self-harm alert → fallback email',
      [rule('a', SUSPEND)],
      ALERT,
      'fallbackEmail:others',
    ],
    [
      'rules of another trigger only, unlock request → fallback email',
      [rule('a', SUSPEND)],
      UNLOCK,
      'fallbackEmail:others',
    ],
    ['an alert rule → only that rule', [rule('a', ALERT), rule('b', UNLOCK)], ALERT, ['a']],
    [
      'security rule only, unlock request → fallback email',
      [rule('a', SECURITY)],
      UNLOCK,
      'fallbackEmail:others',
    ],
    ['unlock rule only, security event → nothing', [rule('a', UNLOCK)], SECURITY, 'nothing'],
    [
      'every matching rule, in order, none of the others',
      [rule('a', UNLOCK), rule('b', SUSPEND), rule('c', UNLOCK), rule('d', SECURITY)],
      UNLOCK,
      ['a', 'c'],
    ],
    ['security rule, security event', [rule('a', SECURITY), rule('b', UNLOCK)], SECURITY, ['a']],
    [
      'one method is used once per event',
      [rule('a', SUSPEND, 'm1'), rule('b', SUSPEND, 'm1'), rule('c', SUSPEND, 'm2')],
      SUSPEND,
      ['a', 'c'],
    ],
    // issue 12: the family's rules are every parent's (methods are per person, so never shared)
    [
      'the owner and a co-parent both have a matching rule → both are notified',
      [rule('owner', UNLOCK, 'owner-email'), rule('co', UNLOCK, 'co-email')],
      UNLOCK,
      ['owner', 'co'],
    ],
    [
      "only the co-parent's rule matches → only the co-parent, no fallback for the owner",
      [rule('owner', SUSPEND, 'owner-email'), rule('co', UNLOCK, 'co-email')],
      UNLOCK,
      ['co'],
    ],
    [
      'a co-parent with rules of another trigger only → the account email',
      [rule('co', SECURITY, 'co-text')],
      UNLOCK,
      'fallbackEmail:others',
    ],
  ])('%s', (_label, rules, trigger, expected) => {
    const plan = planDispatch(rules, trigger);
    if (expected === 'fallbackEmail:none' || expected === 'fallbackEmail:others') {
      expect(plan).toEqual({
        kind: 'fallbackEmail',
        noRulesAtAll: expected === 'fallbackEmail:none',
      });
    } else if (typeof expected === 'string') {
      expect(plan).toEqual({ kind: expected });
    } else {
      expect(plan.kind).toBe('rules');
      expect(plan.kind === 'rules' && plan.rules.map((r) => r.id)).toEqual(expected);
    }
  });
});

describe('triggerReach (what Settings shows)', () => {
  test('each trigger: its own methods, else the account email, else nobody', () => {
    const rules = [rule('a', SUSPEND, 'slack'), rule('b', SUSPEND, 'text')];
    expect(triggerReach(rules, SUSPEND)).toEqual({ kind: 'methods', methodIds: ['slack', 'text'] });
    expect(triggerReach(rules, ALERT)).toEqual({ kind: 'accountEmail' });
    expect(triggerReach(rules, UNLOCK)).toEqual({ kind: 'accountEmail' });
    expect(triggerReach(rules, SECURITY)).toEqual({ kind: 'nobody' });
  });
});

describe('checkNotificationMethodConfig', () => {
  const slack = (overrides: Partial<{ channelId: string; channelName: string; token: string }>) =>
    ({
      case: 'slack',
      channelId: 'C0123ABC',
      channelName: '#family',
      token: 'xoxb-1234-abcd',
      ...overrides,
    }) as NotificationMethodConfig;

  test.each<[NotificationMethodConfig, NotificationMethodConfig | string]>([
    [
      { case: 'email', email: ' Mom@Example.COM ' },
      { case: 'email', email: 'mom@example.com' },
    ],
    [
      { case: 'email', email: 'a@b' },
      { case: 'email', email: 'a@b' },
    ],
    [{ case: 'email', email: 'no-at-sign' }, 'Please enter a valid email address.'],
    [{ case: 'email', email: 'two@@ats' }, 'Please enter a valid email address.'],
    [{ case: 'email', email: '' }, 'Please enter a valid email address.'],
    [{ case: 'email', email: `${'a'.repeat(250)}@b.com` }, 'Please enter a valid email address.'],
    [
      { case: 'text', phoneNumber: '+14155552671' },
      { case: 'text', phoneNumber: '+14155552671' },
    ],
    [
      { case: 'text', phoneNumber: '(415) 555-2671' },
      { case: 'text', phoneNumber: '+14155552671' },
    ],
    [
      { case: 'text', phoneNumber: '+442071838750' },
      { case: 'text', phoneNumber: '+442071838750' },
    ],
    [{ case: 'text', phoneNumber: '123456' }, expect.stringContaining('valid phone number')],
    [{ case: 'text', phoneNumber: '1234567890123456' }, expect.stringContaining('7 to 15 digits')],
    [slack({}), slack({})],
    [
      slack({ channelName: ' #fa ', channelId: ' C012 ' }),
      slack({ channelName: '#fa', channelId: 'C012' }),
    ],
    [slack({ token: 'xoxp-user-token' }), 'The Slack bot token must start with xoxb-.'],
    [slack({ token: `xoxb-${'x'.repeat(300)}` }), 'The Slack bot token must start with xoxb-.'],
    [slack({ channelName: 'a' }), 'The Slack channel name needs at least 2 characters.'],
    [slack({ channelId: 'C01' }), 'The Slack channel ID needs at least 4 characters.'],
  ])('%j → %j', (input, expected) => {
    const result = checkNotificationMethodConfig(input);
    if (typeof expected === 'object' && 'case' in expected) {
      expect(result).toEqual({ ok: true, config: expected });
    } else {
      expect(result).toEqual({ ok: false, message: expected });
    }
  });
});

describe('isMethodDeletable', () => {
  const email = (id: string, address: string) => ({
    id,
    config: { case: 'email' as const, email: address },
  });
  const text = { id: 't', config: { case: 'text' as const, phoneNumber: '+14155552671' } };

  test.each<[string, { id: string; config: NotificationMethodConfig }, string[], boolean]>([
    ['an unused text method', text, [], true],
    ['a text method in use', text, ['t'], false],
    ['the account email method, unused', email('e', 'me@example.com'), [], false],
    ['the account email method, other case', email('e', 'Me@Example.com'), [], false],
    ['another email method, unused', email('e', 'other@example.com'), [], true],
    ['another email method in use', email('e', 'other@example.com'), ['x', 'e'], false],
    ['used by a rule of another method only', text, ['x'], true],
  ])('%s → %s', (_label, method, usedBy, expected) => {
    expect(
      isMethodDeletable(
        method,
        usedBy.map((methodId) => ({ methodId })),
        'me@example.com',
      ),
    ).toBe(expected);
  });
});
