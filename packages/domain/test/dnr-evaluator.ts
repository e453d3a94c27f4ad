import { type DnrResourceType, type DnrRule, STATIC_BLOCK_RULES } from '../src/browser-rules.ts';

// A small reference implementation of Chrome's declarativeNetRequest matching, as documented:
// browser-rules.test.ts and host-keys.test.ts decide requests with it.

// --- a DNR evaluator ---------------------------------------------------------------------------

export interface Request {
  url: string;
  type: DnrResourceType;
  /** the initiator's origin; absent for a navigation the child typed */
  initiator?: string;
}

export type Decision =
  | { verdict: 'allow' }
  | { verdict: 'block' }
  | { verdict: 'redirect'; to: string };

const ACTION_RANK = { allow: 0, allowAllRequests: 1, block: 2, upgradeScheme: 3, redirect: 4 };

function escapeForRegex(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** urlFilter syntax: `||` domain anchor, `|` start/end anchor, `^` separator or end, `*` any. */
function urlFilterRegex(filter: string, isCaseSensitive: boolean): RegExp {
  let body = filter;
  let prefix = '';
  let suffix = '';
  if (body.startsWith('||')) {
    prefix = '^[a-z][a-z0-9+.-]*://(?:[^/?#@]*@)?(?:[^/?#@:]*\\.)?';
    body = body.slice(2);
  } else if (body.startsWith('|')) {
    prefix = '^';
    body = body.slice(1);
  }
  if (body.endsWith('|')) {
    suffix = '$';
    body = body.slice(0, -1);
  }
  const pattern = [...body]
    .map((c) => (c === '*' ? '.*' : c === '^' ? '(?:[^a-zA-Z0-9_.%-]|$)' : escapeForRegex(c)))
    .join('');
  return new RegExp(`${prefix}${pattern}${suffix}`, isCaseSensitive ? '' : 'i');
}

function isOnDomains(host: string, domains: readonly string[]) {
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

function matches(rule: DnrRule, request: Request, url: URL): boolean {
  const c = rule.condition;
  const isCaseSensitive = c.isUrlFilterCaseSensitive ?? false;
  if (c.resourceTypes ? !c.resourceTypes.includes(request.type) : request.type === 'main_frame') {
    return false;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (c.requestDomains && !isOnDomains(host, c.requestDomains)) return false;
  if (c.initiatorDomains) {
    const initiator = request.initiator ? new URL(request.initiator).host : undefined;
    if (!initiator || !isOnDomains(initiator, c.initiatorDomains)) return false;
  }
  if (c.urlFilter && !urlFilterRegex(c.urlFilter, isCaseSensitive).test(url.href)) return false;
  if (c.regexFilter && !new RegExp(c.regexFilter, isCaseSensitive ? '' : 'i').test(url.href)) {
    return false;
  }
  return true;
}

/** Decides a request with the manifest's static rules plus `dynamicRules`, as Chrome does. */
export function evaluate(dynamicRules: readonly DnrRule[], request: Request): Decision {
  const url = new URL(request.url);
  url.hash = '';
  const winner = [...STATIC_BLOCK_RULES, ...dynamicRules]
    .filter((rule) => matches(rule, request, url))
    .sort(
      (a, b) => b.priority - a.priority || ACTION_RANK[a.action.type] - ACTION_RANK[b.action.type],
    )[0];
  if (!winner || winner.action.type === 'allow') return { verdict: 'allow' };
  if (winner.action.type === 'block') return { verdict: 'block' };
  const regex = new RegExp(winner.condition.regexFilter ?? '', 'i');
  const to = url.href.replace(
    regex,
    winner.action.redirect.regexSubstitution.replace(/\\0/g, '$$&'),
  );
  return { verdict: 'redirect', to };
}

export const isAllowed = (rules: readonly DnrRule[], request: Request) =>
  evaluate(rules, request).verdict === 'allow';
