import type { DashboardInput } from '@keyward/contract/dashboard';
import type { BlockRule } from '@keyward/contract/shared';
import {
  addressLines,
  BLOCK_RULE_CONDITIONS,
  type BlockRuleCondition,
  type BlockRuleEditor,
  type BlockRuleType,
  blockRuleFromEditor,
  CONDITION_LABELS,
  describeBlockRule,
  blockRuleToEditor,
  emptyBlockRuleEditor,
  isValidBlockRuleEditor,
} from '@keyward/domain/block-rules';

// The custom block-rule editor of the iOS device page (spec §3 'Block rule cases', §5 'Block
// rules'): an app or an address, its value, and a condition — completely, when the address
// contains, unless the address contains (one per line), or when it is a browser. A rule is saved
// on its own (UpsertBlockRule), apart from Save settings.

export type BlockRuleEditorState =
  | { phase: 'closed' }
  | {
      phase: 'editing' | 'saving';
      /** The rule being changed; undefined for a new rule. */
      ruleId?: string;
      editor: BlockRuleEditor;
      error?: string;
    };

export type BlockRuleEditorEvent =
  | { type: 'addClicked' }
  | { type: 'editClicked'; ruleId: string; rule: BlockRule }
  | { type: 'ruleTypeChanged'; ruleType: BlockRuleType }
  | { type: 'primaryValueChanged'; value: string }
  | { type: 'conditionChanged'; condition: BlockRuleCondition }
  | { type: 'secondaryValueChanged'; value: string }
  | { type: 'cancelClicked' }
  | { type: 'saveClicked' }
  | { type: 'saveSucceeded' }
  | { type: 'saveFailed'; message: string };

export const closedBlockRuleEditor: BlockRuleEditorState = { phase: 'closed' };

/** Spec §5: the placeholder of the app field. */
export const APP_PLACEHOLDER = 'App name or bundle id';
export const ADDRESS_PLACEHOLDER = 'example.com';

/** Rules the editor cannot show (any other shape) can only be deleted. */
export function isEditableRule(rule: BlockRule): boolean {
  return blockRuleToEditor(rule) !== undefined;
}

export function conditionsFor(state: BlockRuleEditorState): BlockRuleCondition[] {
  return state.phase === 'closed' ? [] : BLOCK_RULE_CONDITIONS[state.editor.type];
}

export function canSaveBlockRule(state: BlockRuleEditorState): boolean {
  return state.phase === 'editing' && isValidBlockRuleEditor(state.editor);
}

export function toUpsertBlockRuleInput(
  deviceId: string,
  state: BlockRuleEditorState,
): DashboardInput<'UpsertBlockRule'> | undefined {
  if (state.phase === 'closed' || !isValidBlockRuleEditor(state.editor)) return undefined;
  const rule = blockRuleFromEditor(state.editor);
  return state.ruleId ? { id: state.ruleId, deviceId, rule } : { deviceId, rule };
}

export function blockRuleEditorReducer(
  state: BlockRuleEditorState,
  event: BlockRuleEditorEvent,
): BlockRuleEditorState {
  switch (event.type) {
    case 'addClicked':
      return { phase: 'editing', editor: emptyBlockRuleEditor() };
    case 'editClicked': {
      const editor = blockRuleToEditor(event.rule);
      return editor ? { phase: 'editing', ruleId: event.ruleId, editor } : state;
    }
    case 'cancelClicked':
      return state.phase === 'saving' ? state : closedBlockRuleEditor;
    case 'saveSucceeded':
      return closedBlockRuleEditor;
  }
  if (state.phase === 'closed') return state;
  const editor = state.editor;
  switch (event.type) {
    case 'ruleTypeChanged': {
      // an address rule has no 'when/unless address contains' conditions
      const condition = BLOCK_RULE_CONDITIONS[event.ruleType].includes(editor.condition)
        ? editor.condition
        : 'always';
      return { ...state, error: undefined, editor: { ...editor, type: event.ruleType, condition } };
    }
    case 'primaryValueChanged':
      return { ...state, error: undefined, editor: { ...editor, primaryValue: event.value } };
    case 'conditionChanged':
      if (!BLOCK_RULE_CONDITIONS[editor.type].includes(event.condition)) return state;
      return { ...state, error: undefined, editor: { ...editor, condition: event.condition } };
    case 'secondaryValueChanged':
      return { ...state, error: undefined, editor: { ...editor, secondaryValue: event.value } };
    case 'saveClicked':
      return canSaveBlockRule(state) ? { ...state, phase: 'saving', error: undefined } : state;
    case 'saveFailed':
      return { ...state, phase: 'editing', error: event.message };
  }
}

/** A rule in the page's words: 'Block the app zoom when address contains meet'. */
export function blockRuleInWords(rule: BlockRule): string {
  const editor = blockRuleToEditor(rule);
  if (!editor) return `Block ${describeBlockRule(rule)}`;
  const subject = `${editor.type === 'app' ? 'the app' : 'the address'} ${editor.primaryValue}`;
  const condition = CONDITION_LABELS[editor.condition];
  switch (editor.condition) {
    case 'always':
    case 'whenIsBrowser':
      return `Block ${subject} ${condition}`;
    case 'whenAddressContains':
      return `Block ${subject} ${condition} ${editor.secondaryValue}`;
    case 'unlessAddressContains':
      return `Block ${subject} ${condition} ${addressLines(editor.secondaryValue).join(', ')}`;
  }
}
