import type {
  IosBlockRule,
  IosFlowType,
  IosLegacyBlockRule,
  IosSuspensionDecision,
  IosWebPolicy,
} from '@keyward/contract/ios';
import type { BlockRule, WebPolicy } from '@keyward/contract/shared';

// The iOS app's wire forms of what the server stores in the dashboard's shapes (contract ios.ts).
// Rules, policies and decisions are stored and edited as the dashboard sees them; these turn them
// into what the app's decoder reads, at the edge, in the iOS resolvers only.

export function toIosFlowType(flowType: 'browser' | 'socket'): IosFlowType {
  return flowType === 'browser' ? { browser: {} } : { socket: {} };
}

/** ConnectedRules' `BlockRule`: the same `{case, …}` object, with a synthesized `FlowType`. */
export function toIosBlockRule(rule: BlockRule): IosBlockRule {
  switch (rule.case) {
    case 'flowTypeIs':
      return { case: 'flowTypeIs', value: toIosFlowType(rule.value) };
    case 'both':
      return { case: 'both', a: toIosBlockRule(rule.a), b: toIosBlockRule(rule.b) };
    case 'unless':
      return {
        case: 'unless',
        rule: toIosBlockRule(rule.rule),
        negatedBy: rule.negatedBy.map(toIosBlockRule),
      };
    default:
      return { case: rule.case, value: rule.value };
  }
}

/** `BlockRule.Legacy`, every case synthesized (`_0`, `_1` for the unlabelled values). */
export function toLegacyBlockRule(rule: BlockRule): IosLegacyBlockRule {
  switch (rule.case) {
    case 'bundleIdContains':
      return { bundleIdContains: { _0: rule.value } };
    case 'urlContains':
      return { urlContains: { _0: rule.value } };
    case 'hostnameContains':
      return { hostnameContains: { _0: rule.value } };
    case 'hostnameEquals':
      return { hostnameEquals: { _0: rule.value } };
    case 'hostnameEndsWith':
      return { hostnameEndsWith: { _0: rule.value } };
    case 'targetContains':
      return { targetContains: { _0: rule.value } };
    case 'flowTypeIs':
      return { flowTypeIs: { _0: toIosFlowType(rule.value) } };
    case 'both':
      return { both: { _0: toLegacyBlockRule(rule.a), _1: toLegacyBlockRule(rule.b) } };
    case 'unless':
      return {
        unless: {
          rule: toLegacyBlockRule(rule.rule),
          negatedBy: rule.negatedBy.map(toLegacyBlockRule),
        },
      };
  }
}

/** `WebContentFilterPolicy`: the two listing policies carry their domains as `_0`. */
export function toIosWebPolicy(policy: WebPolicy, domains: readonly string[]): IosWebPolicy {
  switch (policy) {
    case 'blockAdultAnd':
      return { blockAdultAnd: { _0: [...domains] } };
    case 'blockAllExcept':
      return { blockAllExcept: { _0: [...domains] } };
    case 'allowAll':
      return { allowAll: {} };
    case 'blockAdult':
      return { blockAdult: {} };
    case 'blockAll':
      return { blockAll: {} };
  }
}

/** A stored iOS suspension request as `PollFilterSuspensionDecision.Output`. */
export function toIosSuspensionDecision(
  request:
    | {
        status: 'pending' | 'accepted' | 'rejected';
        duration: number;
        response_comment: string | null;
      }
    | undefined,
): IosSuspensionDecision {
  if (!request) return { notFound: {} };
  const comment = request.response_comment ? { parentComment: request.response_comment } : {};
  switch (request.status) {
    case 'pending':
      return { pending: {} };
    case 'rejected':
      return { denied: comment };
    case 'accepted':
      return { accepted: { duration: request.duration, ...comment } };
  }
}
