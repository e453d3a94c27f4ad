import type { BlockRule } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import {
  type BlockRuleEditorEvent,
  type BlockRuleEditorState,
  blockRuleEditorReducer,
  blockRuleInWords,
  canSaveBlockRule,
  closedBlockRuleEditor,
  conditionsFor,
  isEditableRule,
  toUpsertBlockRuleInput,
} from './block-rule-editor';
import { DEVICE_ID, RULE_ID } from './test-fixtures';

const run = (events: BlockRuleEditorEvent[], start: BlockRuleEditorState = closedBlockRuleEditor) =>
  events.reduce(blockRuleEditorReducer, start);

const add = (...events: BlockRuleEditorEvent[]) => run([{ type: 'addClicked' }, ...events]);

describe('block rule editor', () => {
  test('a new rule starts as an app blocked completely, and cannot be saved blank', () => {
    const state = add();
    expect(state).toEqual({
      phase: 'editing',
      editor: { type: 'app', primaryValue: '', condition: 'always', secondaryValue: '' },
    });
    expect(canSaveBlockRule(state)).toBe(false);
    expect(toUpsertBlockRuleInput(DEVICE_ID, state)).toBeUndefined();
  });

  test('conditions: four for an app, two for an address', () => {
    expect(conditionsFor(add())).toEqual([
      'always',
      'whenAddressContains',
      'unlessAddressContains',
      'whenIsBrowser',
    ]);
    expect(conditionsFor(add({ type: 'ruleTypeChanged', ruleType: 'address' }))).toEqual([
      'always',
      'whenIsBrowser',
    ]);
    expect(conditionsFor(closedBlockRuleEditor)).toEqual([]);
  });

  test.each<[string, BlockRuleEditorEvent[], BlockRule | undefined]>([
    ['blank app', [{ type: 'primaryValueChanged', value: '   ' }], undefined],
    [
      'an app completely',
      [{ type: 'primaryValueChanged', value: ' com.zhiliaoapp.musically ' }],
      { case: 'bundleIdContains', value: 'com.zhiliaoapp.musically' },
    ],
    [
      'an app in a browser',
      [
        { type: 'primaryValueChanged', value: 'safari' },
        { type: 'conditionChanged', condition: 'whenIsBrowser' },
      ],
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'safari' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
    ],
    [
      'an app when the address contains, with no address',
      [
        { type: 'primaryValueChanged', value: 'com.google.ios.youtube' },
        { type: 'conditionChanged', condition: 'whenAddressContains' },
        { type: 'secondaryValueChanged', value: '  ' },
      ],
      undefined,
    ],
    [
      'an app when the address contains',
      [
        { type: 'primaryValueChanged', value: 'com.google.ios.youtube' },
        { type: 'conditionChanged', condition: 'whenAddressContains' },
        { type: 'secondaryValueChanged', value: 'shorts' },
      ],
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'com.google.ios.youtube' },
        b: { case: 'targetContains', value: 'shorts' },
      },
    ],
    [
      'an app unless the address contains, blank lines ignored',
      [
        { type: 'primaryValueChanged', value: 'com.apple.mobilesafari' },
        { type: 'conditionChanged', condition: 'unlessAddressContains' },
        { type: 'secondaryValueChanged', value: 'khanacademy.org\n\n  wikipedia.org \n' },
      ],
      {
        case: 'unless',
        rule: { case: 'bundleIdContains', value: 'com.apple.mobilesafari' },
        negatedBy: [
          { case: 'targetContains', value: 'khanacademy.org' },
          { case: 'targetContains', value: 'wikipedia.org' },
        ],
      },
    ],
    [
      'an app unless the address contains, only blank lines',
      [
        { type: 'primaryValueChanged', value: 'com.apple.mobilesafari' },
        { type: 'conditionChanged', condition: 'unlessAddressContains' },
        { type: 'secondaryValueChanged', value: '\n  \n' },
      ],
      undefined,
    ],
    [
      'an address completely',
      [
        { type: 'ruleTypeChanged', ruleType: 'address' },
        { type: 'primaryValueChanged', value: 'roblox.com' },
      ],
      { case: 'targetContains', value: 'roblox.com' },
    ],
    [
      'an address in a browser',
      [
        { type: 'ruleTypeChanged', ruleType: 'address' },
        { type: 'primaryValueChanged', value: 'roblox.com' },
        { type: 'conditionChanged', condition: 'whenIsBrowser' },
      ],
      {
        case: 'both',
        a: { case: 'targetContains', value: 'roblox.com' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
    ],
  ])('%s', (_, events, rule) => {
    const state = add(...events);
    expect(canSaveBlockRule(state)).toBe(rule !== undefined);
    expect(toUpsertBlockRuleInput(DEVICE_ID, state)).toEqual(
      rule ? { deviceId: DEVICE_ID, rule } : undefined,
    );
  });

  test('switching an app rule to address drops an address-only condition', () => {
    const state = add(
      { type: 'conditionChanged', condition: 'unlessAddressContains' },
      { type: 'ruleTypeChanged', ruleType: 'address' },
    );
    expect(state.phase !== 'closed' && state.editor.condition).toBe('always');
    const kept = add(
      { type: 'conditionChanged', condition: 'whenIsBrowser' },
      { type: 'ruleTypeChanged', ruleType: 'address' },
    );
    expect(kept.phase !== 'closed' && kept.editor.condition).toBe('whenIsBrowser');
    const refused = add(
      { type: 'ruleTypeChanged', ruleType: 'address' },
      { type: 'conditionChanged', condition: 'whenAddressContains' },
    );
    expect(refused.phase !== 'closed' && refused.editor.condition).toBe('always');
  });

  test('editing an existing rule keeps its id; rules the editor cannot show are not editable', () => {
    const rule: BlockRule = {
      case: 'both',
      a: { case: 'bundleIdContains', value: 'zoom' },
      b: { case: 'targetContains', value: 'meet' },
    };
    const state = run([
      { type: 'editClicked', ruleId: RULE_ID, rule },
      { type: 'secondaryValueChanged', value: 'webinar' },
    ]);
    expect(toUpsertBlockRuleInput(DEVICE_ID, state)).toEqual({
      id: RULE_ID,
      deviceId: DEVICE_ID,
      rule: { ...rule, b: { case: 'targetContains', value: 'webinar' } },
    });
    const odd: BlockRule = { case: 'hostnameEndsWith', value: '.tiktok.com' };
    expect(isEditableRule(odd)).toBe(false);
    expect(isEditableRule(rule)).toBe(true);
    expect(run([{ type: 'editClicked', ruleId: RULE_ID, rule: odd }])).toBe(closedBlockRuleEditor);
  });

  test('saving: no second save, failure shows the message and allows a retry, success closes', () => {
    const ready = add({ type: 'primaryValueChanged', value: 'roblox' });
    const saving = blockRuleEditorReducer(ready, { type: 'saveClicked' });
    expect(saving.phase).toBe('saving');
    expect(canSaveBlockRule(saving)).toBe(false);
    expect(blockRuleEditorReducer(saving, { type: 'cancelClicked' })).toBe(saving);
    const failed = blockRuleEditorReducer(saving, {
      type: 'saveFailed',
      message: 'Enter the app or address to block.',
    });
    expect(failed).toMatchObject({ phase: 'editing', error: 'Enter the app or address to block.' });
    expect(canSaveBlockRule(failed)).toBe(true);
    expect(blockRuleEditorReducer(saving, { type: 'saveSucceeded' })).toBe(closedBlockRuleEditor);
    expect(blockRuleEditorReducer(ready, { type: 'cancelClicked' })).toBe(closedBlockRuleEditor);
  });
});

describe('a rule in words', () => {
  test.each<[BlockRule, string]>([
    [{ case: 'bundleIdContains', value: 'roblox' }, 'Block the app roblox completely'],
    [{ case: 'targetContains', value: 'tiktok.com' }, 'Block the address tiktok.com completely'],
    [
      {
        case: 'both',
        a: { case: 'targetContains', value: 'reddit.com' },
        b: { case: 'flowTypeIs', value: 'browser' },
      },
      'Block the address reddit.com when it is a browser',
    ],
    [
      {
        case: 'both',
        a: { case: 'bundleIdContains', value: 'youtube' },
        b: { case: 'targetContains', value: 'shorts' },
      },
      'Block the app youtube when address contains shorts',
    ],
    [
      {
        case: 'unless',
        rule: { case: 'bundleIdContains', value: 'safari' },
        negatedBy: [
          { case: 'targetContains', value: 'khanacademy.org' },
          { case: 'targetContains', value: 'wikipedia.org' },
        ],
      },
      'Block the app safari unless address contains khanacademy.org, wikipedia.org',
    ],
    [{ case: 'hostnameEndsWith', value: '.tiktok.com' }, 'Block host ends with .tiktok.com'],
  ])('%j', (rule, words) => {
    expect(blockRuleInWords(rule)).toBe(words);
  });
});
