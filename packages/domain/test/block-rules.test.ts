import type { BlockRule } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  type BlockRuleEditor,
  blockRuleFromEditor,
  blockRuleProblem,
  blockRuleToEditor,
  canAddDomain,
  decideFlow,
  describeBlockRule,
  type Flow,
  isOnDomainList,
  isValidBlockRuleEditor,
  ruleMatches,
} from '../src/block-rules.ts';

const editor = (overrides: Partial<BlockRuleEditor>): BlockRuleEditor => ({
  type: 'app',
  primaryValue: 'com.zoom',
  condition: 'always',
  secondaryValue: '',
  ...overrides,
});

describe('isValidBlockRuleEditor (spec §5)', () => {
  test.each<[Partial<BlockRuleEditor>, boolean]>([
    [{}, true],
    [{ primaryValue: '' }, false],
    [{ primaryValue: '   ' }, false],
    [{ condition: 'whenIsBrowser' }, true],
    [{ condition: 'whenAddressContains', secondaryValue: '' }, false],
    [{ condition: 'whenAddressContains', secondaryValue: ' ' }, false],
    [{ condition: 'whenAddressContains', secondaryValue: 'meet' }, true],
    [{ condition: 'unlessAddressContains', secondaryValue: '\n \n' }, false],
    [{ condition: 'unlessAddressContains', secondaryValue: 'a.com\n\nb.com' }, true],
    [{ type: 'address', primaryValue: 'tiktok', condition: 'always' }, true],
    [{ type: 'address', primaryValue: 'tiktok', condition: 'whenIsBrowser' }, true],
    // address rules offer only 'completely' and 'when it is a browser'
    [{ type: 'address', condition: 'whenAddressContains', secondaryValue: 'x' }, false],
    [{ type: 'address', condition: 'unlessAddressContains', secondaryValue: 'x' }, false],
  ])('%j → %s', (overrides, expected) => {
    expect(isValidBlockRuleEditor(editor(overrides))).toBe(expected);
  });
});

describe('editor ⇄ rule', () => {
  test.each<[Partial<BlockRuleEditor>, BlockRule]>([
    [{}, { case: 'bundleIdContains', value: 'com.zoom' }],
    [
      { type: 'address', primaryValue: ' tiktok.com ' },
      { case: 'targetContains', value: 'tiktok.com' },
    ],
    [
      { condition: 'whenIsBrowser' },
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'com.zoom' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
    ],
    [
      { condition: 'whenAddressContains', secondaryValue: ' chat ' },
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'com.zoom' },
        b: { case: 'targetContains', value: 'chat' },
      },
    ],
    [
      { condition: 'unlessAddressContains', secondaryValue: 'school.org\n\n  class.org \n' },
      {
        case: 'unless',
        rule: { case: 'bundleIdContains', value: 'com.zoom' },
        negatedBy: [
          { case: 'targetContains', value: 'school.org' },
          { case: 'targetContains', value: 'class.org' },
        ],
      },
    ],
    [
      { type: 'address', primaryValue: 'youtube', condition: 'whenIsBrowser' },
      {
        case: 'both',
        a: { case: 'targetContains', value: 'youtube' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
    ],
  ])('%j → %j and back', (overrides, rule) => {
    const model = editor(overrides);
    expect(blockRuleFromEditor(model)).toEqual(rule);
    const back = blockRuleToEditor(rule);
    expect(back && blockRuleFromEditor(back)).toEqual(rule);
  });

  test.each<BlockRule>([
    { case: 'hostnameEquals', value: 'x.com' },
    { case: 'flowTypeIs', value: 'socket' },
    {
      case: 'both',
      a: { case: 'urlContains', value: 'a' },
      b: { case: 'urlContains', value: 'b' },
    },
    {
      case: 'unless',
      rule: { case: 'bundleIdContains', value: 'a' },
      negatedBy: [{ case: 'hostnameEquals', value: 'b' }],
    },
  ])('%j has no editor model (shown as text only)', (rule) => {
    expect(blockRuleToEditor(rule)).toBeUndefined();
    expect(describeBlockRule(rule)).not.toBe('');
  });
});

describe('blockRuleProblem (server check)', () => {
  test.each<[BlockRule, string | undefined]>([
    [{ case: 'bundleIdContains', value: 'com.x' }, undefined],
    [{ case: 'hostnameEquals', value: ' ' }, 'Enter the app or address to block.'],
    [
      { case: 'urlContains', value: 'x'.repeat(254) },
      'The value is too long (at most 253 characters).',
    ],
    [{ case: 'flowTypeIs', value: 'browser' }, undefined],
    [
      { case: 'unless', rule: { case: 'bundleIdContains', value: 'a' }, negatedBy: [] },
      'Add at least one address for "unless".',
    ],
    [
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'a' },
        b: { case: 'targetContains', value: '' },
      },
      'Enter the app or address to block.',
    ],
  ])('%j → %j', (rule, problem) => {
    expect(blockRuleProblem(rule)).toBe(problem);
  });

  test('deep nesting is refused', () => {
    let rule: BlockRule = { case: 'bundleIdContains', value: 'a' };
    for (let i = 0; i < 6; i++) rule = { case: 'both', a: rule, b: rule };
    expect(blockRuleProblem(rule)).toBe('The rule is nested too deeply.');
  });
});

const safari: Flow = {
  bundleId: 'com.apple.mobilesafari',
  hostname: 'www.youtube.com',
  url: 'https://www.youtube.com/watch?v=1',
  isBrowser: true,
};
const zoom: Flow = { bundleId: 'us.zoom.videomeetings', hostname: 'zoom.us', isBrowser: false };

describe('ruleMatches: every rule case', () => {
  test.each<[string, BlockRule, Flow, boolean]>([
    ['bundleIdContains, case-insensitive', { case: 'bundleIdContains', value: 'ZOOM' }, zoom, true],
    ['bundleIdContains, other app', { case: 'bundleIdContains', value: 'tiktok' }, zoom, false],
    ['urlContains', { case: 'urlContains', value: 'watch?v' }, safari, true],
    ['urlContains without a URL', { case: 'urlContains', value: 'zoom' }, zoom, false],
    ['hostnameContains', { case: 'hostnameContains', value: 'youtube' }, safari, true],
    ['hostnameEquals exact', { case: 'hostnameEquals', value: 'www.youtube.com' }, safari, true],
    [
      'hostnameEquals not a suffix',
      { case: 'hostnameEquals', value: 'youtube.com' },
      safari,
      false,
    ],
    ['hostnameEndsWith', { case: 'hostnameEndsWith', value: 'youtube.com' }, safari, true],
    ['hostnameEndsWith no', { case: 'hostnameEndsWith', value: 'tube.org' }, safari, false],
    ['targetContains host', { case: 'targetContains', value: 'zoom.us' }, zoom, true],
    ['targetContains url', { case: 'targetContains', value: 'v=1' }, safari, true],
    ['flowTypeIs browser', { case: 'flowTypeIs', value: 'browser' }, safari, true],
    ['flowTypeIs browser, app flow', { case: 'flowTypeIs', value: 'browser' }, zoom, false],
    ['flowTypeIs socket', { case: 'flowTypeIs', value: 'socket' }, zoom, true],
    [
      'both, both true',
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'safari' },
        b: { case: 'hostnameContains', value: 'youtube' },
      },
      safari,
      true,
    ],
    [
      'both, one false',
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'safari' },
        b: { case: 'hostnameContains', value: 'vimeo' },
      },
      safari,
      false,
    ],
    [
      'unless, negated',
      {
        case: 'unless',
        rule: { case: 'bundleIdContains', value: 'safari' },
        negatedBy: [{ case: 'targetContains', value: 'youtube' }],
      },
      safari,
      false,
    ],
    [
      'unless, not negated',
      {
        case: 'unless',
        rule: { case: 'bundleIdContains', value: 'safari' },
        negatedBy: [{ case: 'targetContains', value: 'khanacademy' }],
      },
      safari,
      true,
    ],
  ])('%s', (_name, rule, flow, expected) => {
    expect(ruleMatches(rule, flow)).toBe(expected);
  });
});

describe('decideFlow: rules first, then the web policy for browser flows', () => {
  const khan: Flow = { ...safari, hostname: 'www.khanacademy.org', url: undefined };
  test.each<[string, BlockRule[], Parameters<typeof decideFlow>[1], Flow, boolean]>([
    ['blockAll blocks a website', [], { case: 'blockAll' }, khan, true],
    ['blockAll leaves app traffic alone', [], { case: 'blockAll' }, zoom, false],
    ['allowAll', [], { case: 'allowAll' }, khan, false],
    [
      'blockAllExcept, listed',
      [],
      { case: 'blockAllExcept', domains: ['khanacademy.org'] },
      khan,
      false,
    ],
    [
      'blockAllExcept, not listed',
      [],
      { case: 'blockAllExcept', domains: ['wikipedia.org'] },
      khan,
      true,
    ],
    [
      'blockAdultAnd, listed',
      [],
      { case: 'blockAdultAnd', domains: ['khanacademy.org'] },
      khan,
      true,
    ],
    ['blockAdultAnd, not listed', [], { case: 'blockAdultAnd', domains: ['x.com'] }, khan, false],
    ['blockAdult', [], { case: 'blockAdult' }, khan, false],
    [
      'a rule blocks even under allowAll',
      [{ case: 'bundleIdContains', value: 'zoom' }],
      { case: 'allowAll' },
      zoom,
      true,
    ],
  ])('%s', (_name, rules, policy, flow, blocked) => {
    expect(decideFlow(rules, policy, flow).blocked).toBe(blocked);
  });
});

describe('domain lists', () => {
  test.each<[string, string[], boolean]>([
    ['khanacademy.org', ['khanacademy.org'], true],
    ['www.khanacademy.org', ['khanacademy.org'], true],
    ['notkhanacademy.org', ['khanacademy.org'], false],
    ['KHANACADEMY.ORG.', ['khanacademy.org'], true],
    ['x.org', [''], false],
  ])('%s on %j → %s', (host, list, expected) => {
    expect(isOnDomainList(host, list)).toBe(expected);
  });

  test.each<[string[], string, boolean]>([
    [[], 'a.com', true],
    [[], '  ', false],
    [['a.com'], 'A.com', false],
    [['a.com'], ' b.com ', true],
    [['wikipedia.org'], 'https://www.Wikipedia.org/wiki/Cat', false],
  ])('canAddDomain(%j, %j) → %s', (list, candidate, expected) => {
    expect(canAddDomain(list, candidate)).toBe(expected);
  });
});
