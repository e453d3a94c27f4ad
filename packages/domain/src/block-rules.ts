import type { BlockRule, WebPolicy } from '@keyward/contract/shared';
import { websiteDomain } from './keys.ts';

// iOS block rules (spec §3 block-rule cases, §5 "Block rules"): the editor's model of a custom
// rule, its conversion to and from the wire rule, its validity, and what a rule set and a web
// policy decide for one network flow (as the iOS filter would).

export type BlockRuleType = 'app' | 'address';
export type BlockRuleCondition =
  | 'always'
  | 'whenAddressContains'
  | 'unlessAddressContains'
  | 'whenIsBrowser';

export interface BlockRuleEditor {
  type: BlockRuleType;
  /** the app (bundle id part) or the address part the rule is about */
  primaryValue: string;
  condition: BlockRuleCondition;
  /** the address part for whenAddressContains; one address per line for unlessAddressContains */
  secondaryValue: string;
}

export const BLOCK_RULE_CONDITIONS: Record<BlockRuleType, BlockRuleCondition[]> = {
  app: ['always', 'whenAddressContains', 'unlessAddressContains', 'whenIsBrowser'],
  address: ['always', 'whenIsBrowser'],
};

export const CONDITION_LABELS: Record<BlockRuleCondition, string> = {
  always: 'completely',
  whenAddressContains: 'when address contains',
  unlessAddressContains: 'unless address contains',
  whenIsBrowser: 'when it is a browser',
};

export const emptyBlockRuleEditor = (): BlockRuleEditor => ({
  type: 'app',
  primaryValue: '',
  condition: 'always',
  secondaryValue: '',
});

/** Addresses of an unlessAddressContains rule: one per line, blank lines ignored. */
export function addressLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Spec §5: a non-blank primary value; a non-blank secondary value unless always/whenIsBrowser. */
export function isValidBlockRuleEditor(editor: BlockRuleEditor): boolean {
  if (editor.primaryValue.trim() === '') return false;
  if (!BLOCK_RULE_CONDITIONS[editor.type].includes(editor.condition)) return false;
  if (editor.condition === 'always' || editor.condition === 'whenIsBrowser') return true;
  if (editor.condition === 'unlessAddressContains') {
    return addressLines(editor.secondaryValue).length > 0;
  }
  return editor.secondaryValue.trim() !== '';
}

export function blockRuleFromEditor(editor: BlockRuleEditor): BlockRule {
  const value = editor.primaryValue.trim();
  const subject: BlockRule =
    editor.type === 'app' ? { case: 'bundleIdContains', value } : { case: 'targetContains', value };
  switch (editor.condition) {
    case 'always':
      return subject;
    case 'whenIsBrowser':
      return { case: 'both', a: subject, b: { case: 'flowTypeIs', value: 'browser' } };
    case 'whenAddressContains':
      return {
        case: 'both',
        a: subject,
        b: { case: 'targetContains', value: editor.secondaryValue.trim() },
      };
    case 'unlessAddressContains':
      return {
        case: 'unless',
        rule: subject,
        negatedBy: addressLines(editor.secondaryValue).map((line) => ({
          case: 'targetContains' as const,
          value: line,
        })),
      };
  }
}

/** The editor model of a rule the editor can show, or undefined for any other rule shape. */
export function blockRuleToEditor(rule: BlockRule): BlockRuleEditor | undefined {
  const subject = (r: BlockRule): Pick<BlockRuleEditor, 'type' | 'primaryValue'> | undefined =>
    r.case === 'bundleIdContains'
      ? { type: 'app', primaryValue: r.value }
      : r.case === 'targetContains'
        ? { type: 'address', primaryValue: r.value }
        : undefined;
  const plain = subject(rule);
  if (plain) return { ...plain, condition: 'always', secondaryValue: '' };
  if (rule.case === 'both') {
    const first = subject(rule.a);
    if (!first) return undefined;
    if (rule.b.case === 'flowTypeIs' && rule.b.value === 'browser') {
      return { ...first, condition: 'whenIsBrowser', secondaryValue: '' };
    }
    if (first.type === 'app' && rule.b.case === 'targetContains') {
      return { ...first, condition: 'whenAddressContains', secondaryValue: rule.b.value };
    }
    return undefined;
  }
  if (rule.case === 'unless') {
    const first = subject(rule.rule);
    const lines = rule.negatedBy.map((r) => (r.case === 'targetContains' ? r.value : undefined));
    if (first?.type !== 'app' || lines.length === 0 || lines.some((l) => l === undefined)) {
      return undefined;
    }
    return { ...first, condition: 'unlessAddressContains', secondaryValue: lines.join('\n') };
  }
  return undefined;
}

/** A rule in words: "app zoom.us, when address contains meet". */
export function describeBlockRule(rule: BlockRule): string {
  switch (rule.case) {
    case 'bundleIdContains':
      return `app ${rule.value}`;
    case 'targetContains':
      return `address ${rule.value}`;
    case 'urlContains':
      return `URL contains ${rule.value}`;
    case 'hostnameContains':
      return `host contains ${rule.value}`;
    case 'hostnameEquals':
      return `host ${rule.value}`;
    case 'hostnameEndsWith':
      return `host ends with ${rule.value}`;
    case 'flowTypeIs':
      return rule.value === 'browser' ? 'in a browser' : 'outside a browser';
    case 'both':
      return `${describeBlockRule(rule.a)}, ${describeBlockRule(rule.b)}`;
    case 'unless':
      return `${describeBlockRule(rule.rule)}, unless ${rule.negatedBy.map(describeBlockRule).join(' or ')}`;
  }
}

/** Every string of a rule is non-blank, and nesting stays shallow (server-side check). */
export function blockRuleProblem(rule: BlockRule, depth = 0): string | undefined {
  if (depth > 4) return 'The rule is nested too deeply.';
  switch (rule.case) {
    case 'flowTypeIs':
      return undefined;
    case 'both':
      return blockRuleProblem(rule.a, depth + 1) ?? blockRuleProblem(rule.b, depth + 1);
    case 'unless':
      if (rule.negatedBy.length === 0) return 'Add at least one address for "unless".';
      return (
        blockRuleProblem(rule.rule, depth + 1) ??
        rule.negatedBy.map((r) => blockRuleProblem(r, depth + 1)).find(Boolean)
      );
    default:
      if (rule.value.trim() === '') return 'Enter the app or address to block.';
      if (rule.value.length > 253) return 'The value is too long (at most 253 characters).';
      return undefined;
  }
}

/** One network flow as the iOS filter sees it. */
export interface Flow {
  bundleId: string;
  hostname?: string;
  url?: string;
  isBrowser: boolean;
}

export function ruleMatches(rule: BlockRule, flow: Flow): boolean {
  const lower = (s: string | undefined) => (s ?? '').toLowerCase();
  const host = lower(flow.hostname);
  const url = lower(flow.url);
  switch (rule.case) {
    case 'bundleIdContains':
      return lower(flow.bundleId).includes(lower(rule.value));
    case 'urlContains':
      return url !== '' && url.includes(lower(rule.value));
    case 'hostnameContains':
      return host !== '' && host.includes(lower(rule.value));
    case 'hostnameEquals':
      return host !== '' && host === lower(rule.value);
    case 'hostnameEndsWith':
      return host !== '' && host.endsWith(lower(rule.value));
    case 'targetContains': {
      const value = lower(rule.value);
      return (host !== '' && host.includes(value)) || (url !== '' && url.includes(value));
    }
    case 'flowTypeIs':
      return rule.value === 'browser' ? flow.isBrowser : !flow.isBrowser;
    case 'both':
      return ruleMatches(rule.a, flow) && ruleMatches(rule.b, flow);
    case 'unless':
      return ruleMatches(rule.rule, flow) && !rule.negatedBy.some((r) => ruleMatches(r, flow));
  }
}

/** The host is one of `domains` or a subdomain of one. */
export function isOnDomainList(hostname: string, domains: string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return domains.some((domain) => {
    const d = domain.toLowerCase().trim();
    return d !== '' && (host === d || host.endsWith(`.${d}`));
  });
}

export type FlowDecision = { blocked: true; reason: string } | { blocked: false; reason: string };

/**
 * What the device does with a flow: a matching block rule blocks it; otherwise a browser flow
 * with a hostname follows the web policy. Adult-content limiting (blockAdult, blockAdultAnd) is
 * done by iOS itself, so only the listed domains are decided here.
 */
export function decideFlow(
  rules: BlockRule[],
  webPolicy: { case: WebPolicy; domains?: string[] },
  flow: Flow,
): FlowDecision {
  const rule = rules.find((r) => ruleMatches(r, flow));
  if (rule) return { blocked: true, reason: `block rule: ${describeBlockRule(rule)}` };
  if (!flow.isBrowser || !flow.hostname) return { blocked: false, reason: 'no block rule matches' };
  const domains = webPolicy.domains ?? [];
  switch (webPolicy.case) {
    case 'allowAll':
      return { blocked: false, reason: 'web policy: allow all' };
    case 'blockAll':
      return { blocked: true, reason: 'web policy: block all websites' };
    case 'blockAllExcept':
      return isOnDomainList(flow.hostname, domains)
        ? { blocked: false, reason: 'web policy: on the allowed list' }
        : { blocked: true, reason: 'web policy: not on the allowed list' };
    case 'blockAdultAnd':
      return isOnDomainList(flow.hostname, domains)
        ? { blocked: true, reason: 'web policy: on the blocked list' }
        : { blocked: false, reason: 'web policy: adult websites limited by iOS' };
    case 'blockAdult':
      return { blocked: false, reason: 'web policy: adult websites limited by iOS' };
  }
}

/** Spec §5: a domain is added only when non-blank and not already listed (case-insensitive). */
export function canAddDomain(domains: string[], candidate: string): boolean {
  if (candidate.trim() === '') return false;
  const check = websiteDomain(candidate);
  const d = check.ok ? check.domain : candidate.trim().toLowerCase();
  return !domains.some((existing) => existing.toLowerCase() === d);
}

/** The policies that carry a domain list. */
export function policyHasDomains(policy: WebPolicy): boolean {
  return policy === 'blockAdultAnd' || policy === 'blockAllExcept';
}
