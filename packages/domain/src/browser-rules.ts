import type {
  BrowserKeychain,
  BrowserSuspension,
  BrowserKey as WireBrowserKey,
} from '@keyward/contract/browser';
import type { PlainTimeWindow, SharedKey } from '@keyward/contract/shared';
import { appliesToEveryApp, asciiHost, hostKeyPlan } from './host-keys.ts';
import { keychainInForce } from './keychains-in-force.ts';
import { isTimeInWindow, localDatePartsOf } from './schedule.ts';

// Issue 22, Keyward for Chrome: the child's keys become `chrome.declarativeNetRequest` dynamic
// rules that decide exactly like the Mac filter (a flow is allowed when a key of a keychain in
// force unlocks it; everything else is blocked).
//
// The rules, lowest priority first:
//   1. block everything: a static ruleset in the manifest (STATIC_BLOCK_RULES), in force from the
//      moment the extension is installed, before the service worker has written any rule, and
//      whatever happens to the dynamic rules (fails closed).
//   2. redirect every http(s) main frame to the block page, the blocked URL after its `#`.
//      A redirect (not block + webNavigation.onErrorOccurred) so the tab shows the block page
//      at once, with no error page flashing and no race with the service worker waking up,
//      and the back button leaves the blocked site's history entry behind.
//   3. allow: the Keyward server's own origin, requests the extension itself makes, and the keys;
//      during a suspension, everything.
// DNR facts this relies on: `requestDomains: [d]` matches d and every subdomain of d; urlFilter
// `|` anchors at the start or end of the URL, `^` matches one separator (anything but a letter,
// digit, `_ - . %`) or the end, `*` anything; the URL is canonical (lowercase host, `/` path,
// default port dropped, no fragment). `*` is never used in a urlFilter here: `|http*://host^`
// would also match `http://evil.net/?u=https://host/`.

export type DnrResourceType =
  | 'main_frame'
  | 'sub_frame'
  | 'stylesheet'
  | 'script'
  | 'image'
  | 'font'
  | 'object'
  | 'xmlhttprequest'
  | 'ping'
  | 'csp_report'
  | 'media'
  | 'websocket'
  | 'webtransport'
  | 'webbundle'
  | 'other';

export const ALL_RESOURCE_TYPES: readonly DnrResourceType[] = [
  'main_frame',
  'sub_frame',
  'stylesheet',
  'script',
  'image',
  'font',
  'object',
  'xmlhttprequest',
  'ping',
  'csp_report',
  'media',
  'websocket',
  'webtransport',
  'webbundle',
  'other',
];

/** The part of `chrome.declarativeNetRequest.Rule` the compiler writes (a structural subset). */
export interface DnrRule {
  id: number;
  priority: number;
  action:
    | { type: 'allow' }
    | { type: 'block' }
    | { type: 'redirect'; redirect: { regexSubstitution: string } };
  condition: {
    urlFilter?: string;
    regexFilter?: string;
    isUrlFilterCaseSensitive?: boolean;
    requestDomains?: string[];
    initiatorDomains?: string[];
    resourceTypes?: DnrResourceType[];
  };
}

/** Chrome 121+: 30,000 safe dynamic rules (allow, block), of which 1,000 regex rules. */
export const DNR_LIMITS = { rules: 30_000, regexRules: 1_000 } as const;

export const BLOCK_PRIORITY = 1;
export const REDIRECT_PRIORITY = 2;
export const ALLOW_PRIORITY = 3;

/** The manifest's static ruleset (its ids are its own, apart from the dynamic rules'). */
export const STATIC_BLOCK_RULES: DnrRule[] = [
  {
    id: 1,
    priority: BLOCK_PRIORITY,
    action: { type: 'block' },
    condition: { resourceTypes: [...ALL_RESOURCE_TYPES] },
  },
];

export const RULE_IDS = {
  blockSubResources: 1,
  redirectMainFrames: 2,
  extensionRequests: 3,
  allowEverything: 8,
  /** the server's origin takes 4…7 (one per scheme at most) */
  serverOrigin: 4,
  firstKey: 10,
} as const;

export type FilterMode =
  | 'filtering'
  | 'suspended'
  | 'downtime'
  | 'notConnected'
  /** issue 34: the parent paused the internet: everything is blocked */
  | 'paused'
  /** issue 34: today's allowance is used up: only the sites that don't use up time open */
  | 'timesUp';

export type SkipReason = 'regexLimit' | 'ruleLimit' | 'unsupported';

export interface CompiledBrowserRules {
  rules: DnrRule[];
  regexRuleCount: number;
  /** keys that apply now but could not become rules */
  skippedKeys: { id: string; reason: SkipReason }[];
  /** the earliest instant the result changes (set an alarm for it); undefined: never */
  nextChangeAt?: Date;
  mode: FilterMode;
  /** keys that became rules */
  keysInForce: number;
}

export interface BrowserRulesInput {
  keychains: readonly BrowserKeychain[];
  now: Date;
  downtime?: PlainTimeWindow | undefined;
  suspension?: BrowserSuspension | undefined;
  /** the Keyward server, e.g. `https://keyward.example` or `http://127.0.0.1:8080` */
  serverOrigin: string;
  /** `chrome-extension://<id>/blocked.html`; the blocked URL is appended after a `#` */
  blockPageUrl: string;
  /** follows Date#getTimezoneOffset; absent: the runtime's own time zone */
  timeZoneOffsetMinutes?: number | undefined;
  /** issue 34: the parent paused the internet until this instant (null: until resumed) */
  pausedUntil?: Date | null | undefined;
  /** issue 34: the allowance is used up: only the exempt keychains unlock, until it resets */
  timesUp?: { exemptKeychainIds: readonly string[]; resetsAt: Date } | undefined;
  limits?: { rules: number; regexRules: number };
}

const MINUTE_MS = 60_000;
const HTTP_SCHEMES = ['http', 'https'] as const;
const ALL_SCHEMES = ['http', 'https', 'ws', 'wss'] as const;

/** Never connected, or disconnected by the parent: everything but the extension is blocked. */
export function compileBlockEverything(blockPageUrl: string): CompiledBrowserRules {
  return {
    rules: baseRules(blockPageUrl),
    regexRuleCount: 1,
    skippedKeys: [],
    mode: 'notConnected',
    keysInForce: 0,
  };
}

export function compileBrowserRules(input: BrowserRulesInput): CompiledBrowserRules {
  const { now, timeZoneOffsetMinutes: offset } = input;
  const limits = input.limits ?? DNR_LIMITS;

  // Issue 34: a pause is the parent's latest word ("stop now"): it wins over a suspension.
  const { pausedUntil } = input;
  if (pausedUntil === null || (pausedUntil && pausedUntil > now)) {
    return {
      rules: [...baseRules(input.blockPageUrl), ...serverRules(input.serverOrigin)],
      regexRuleCount: 1,
      skippedKeys: [],
      ...(pausedUntil ? { nextChangeAt: pausedUntil } : {}),
      mode: 'paused',
      keysInForce: 0,
    };
  }

  const suspensionEnd = input.suspension ? new Date(input.suspension.endsAt) : undefined;
  if (suspensionEnd && suspensionEnd > now) {
    // The parent's grant wins over downtime: they chose to turn the filter off.
    const allowEverything: DnrRule = {
      id: RULE_IDS.allowEverything,
      priority: ALLOW_PRIORITY,
      action: { type: 'allow' },
      condition: { resourceTypes: [...ALL_RESOURCE_TYPES] },
    };
    return {
      rules: [allowEverything],
      regexRuleCount: 0,
      skippedKeys: [],
      nextChangeAt: suspensionEnd,
      mode: 'suspended',
      keysInForce: 0,
    };
  }

  const changes: Date[] = [];
  const base = [...baseRules(input.blockPageUrl), ...serverRules(input.serverOrigin)];

  if (input.downtime) {
    const isDowntime = isInDowntime(input.downtime, now, offset);
    const boundary = nextDowntimeChange(input.downtime, now, offset);
    if (boundary) changes.push(boundary);
    if (isDowntime) {
      return {
        rules: base,
        regexRuleCount: 1,
        skippedKeys: [],
        nextChangeAt: boundary,
        mode: 'downtime',
        keysInForce: 0,
      };
    }
  }

  // Issue 34: time's up until the allowance resets (or the parent grants more, and the extension
  // compiles again): only the keychains that don't use up time.
  const timesUp = input.timesUp && input.timesUp.resetsAt > now ? input.timesUp : undefined;
  const exempt = new Set(timesUp?.exemptKeychainIds.map((id) => id.toLowerCase()));
  if (timesUp) changes.push(timesUp.resetsAt);

  const keys: WireBrowserKey[] = [];
  const inForceBySchedule = new Map<string, ReturnType<typeof keychainInForce>>();
  for (const keychain of input.keychains) {
    if (timesUp && !exempt.has(keychain.id.toLowerCase())) continue;
    const browserKeys = keychain.keys.filter(
      (k) => appliesToBrowser(k.key) && !(k.expiration && new Date(k.expiration) <= now),
    );
    if (browserKeys.length === 0) continue;
    const scheduleKey = JSON.stringify(keychain.schedule ?? null);
    let state = inForceBySchedule.get(scheduleKey);
    if (!state) {
      state = keychainInForce(keychain.schedule, now, offset);
      inForceBySchedule.set(scheduleKey, state);
    }
    if (state.case === 'now' && state.until) changes.push(state.until);
    if (state.case === 'later') {
      if (state.from) changes.push(state.from);
      continue;
    }
    for (const key of browserKeys) {
      if (key.expiration) changes.push(new Date(key.expiration));
      keys.push(key);
    }
  }

  const built = keyRules(keys, {
    firstId: RULE_IDS.firstKey,
    rulesLeft: limits.rules - base.length,
    regexLeft: limits.regexRules - 1,
  });
  return {
    rules: [...base, ...built.rules],
    regexRuleCount: 1 + built.regexRuleCount,
    skippedKeys: built.skippedKeys,
    nextChangeAt: earliest(changes),
    mode: timesUp ? 'timesUp' : 'filtering',
    keysInForce: keys.length - built.skippedKeys.length,
  };
}

/** Only keys for every app or for web browsers reach a browser; app and skeleton keys do not. */
export function appliesToBrowser(key: SharedKey): boolean {
  return appliesToEveryApp(key);
}

export function isInDowntime(window: PlainTimeWindow, now: Date, offset?: number): boolean {
  const local = localDatePartsOf(now, offset);
  return isTimeInWindow(window, { hour: local.hour, minute: local.minute });
}

/** The next minute at which `now` enters or leaves the downtime window (within a day). */
function nextDowntimeChange(window: PlainTimeWindow, now: Date, offset?: number): Date | undefined {
  const isInside = isInDowntime(window, now, offset);
  const startOfMinute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  // 25 hours: a daylight-saving day can be 25 hours long.
  for (let minute = 1; minute <= 25 * 60; minute++) {
    const at = new Date(startOfMinute + minute * MINUTE_MS);
    if (isInDowntime(window, at, offset) !== isInside) return at;
  }
  return undefined;
}

function earliest(dates: Date[]): Date | undefined {
  let first: Date | undefined;
  for (const date of dates) if (!first || date < first) first = date;
  return first;
}

function baseRules(blockPageUrl: string): DnrRule[] {
  const extensionId = new URL(blockPageUrl).host;
  return [
    {
      id: RULE_IDS.blockSubResources,
      priority: BLOCK_PRIORITY,
      action: { type: 'block' },
      condition: {},
    },
    {
      id: RULE_IDS.redirectMainFrames,
      priority: REDIRECT_PRIORITY,
      action: { type: 'redirect', redirect: { regexSubstitution: `${blockPageUrl}#\\0` } },
      condition: { regexFilter: '^https?://.*$', resourceTypes: ['main_frame'] },
    },
    {
      // The extension's own requests: check-ins, the channel, screenshot uploads to storage. Never
      // frames: a page the block page opens (or reloads) has the extension as its initiator, and
      // must pass the keys like any other.
      id: RULE_IDS.extensionRequests,
      priority: ALLOW_PRIORITY,
      action: { type: 'allow' },
      condition: {
        initiatorDomains: [extensionId],
        resourceTypes: ['xmlhttprequest', 'websocket', 'other'],
      },
    },
  ];
}

function serverRules(serverOrigin: string): DnrRule[] {
  let origin: URL;
  try {
    origin = new URL(serverOrigin);
  } catch {
    return [];
  }
  const secure = origin.protocol === 'https:';
  const schemes = secure ? ['https', 'wss'] : ['http', 'ws'];
  return schemes.map((scheme, i) => ({
    id: RULE_IDS.serverOrigin + i,
    priority: ALLOW_PRIORITY,
    action: { type: 'allow' },
    condition: {
      urlFilter: `|${scheme}://${origin.host}/`,
      isUrlFilterCaseSensitive: false,
      resourceTypes: [...ALL_RESOURCE_TYPES],
    },
  }));
}

// --- keys ---------------------------------------------------------------------------------------

/** Hosts per `requestDomains` rule; Chrome sets no documented cap, this keeps rules small. */
const DOMAINS_PER_RULE = 1_000;

interface KeyRulesBudget {
  firstId: number;
  rulesLeft: number;
  regexLeft: number;
}

type KeyPlan =
  | { kind: 'exactHosts'; hosts: string[] }
  | { kind: 'subdomains'; domain: string; exactHosts: string[] }
  | { kind: 'regex'; regexFilter: string }
  | { kind: 'urlFilters'; urlFilters: string[] }
  | { kind: 'unsupported' };

function keyRules(keys: readonly WireBrowserKey[], budget: KeyRulesBudget) {
  const rules: DnrRule[] = [];
  const skippedKeys: CompiledBrowserRules['skippedKeys'] = [];
  let nextId = budget.firstId;
  let rulesLeft = budget.rulesLeft;
  let regexLeft = budget.regexLeft;
  let regexRuleCount = 0;

  const subdomainRoots = new Set<string>();
  const exactHosts = new Set<string>();
  const urlFilters = new Set<string>();
  const allow = (condition: DnrRule['condition']): DnrRule => ({
    id: nextId++,
    priority: ALLOW_PRIORITY,
    action: { type: 'allow' },
    condition: {
      ...condition,
      isUrlFilterCaseSensitive: false,
      resourceTypes: [...ALL_RESOURCE_TYPES],
    },
  });

  // The `requestDomains` lists need a known number of rules, so they are planned first: every
  // anySubdomain key costs at most one rule (its share of a list) plus its exact hosts.
  const plans = keys.map((k) => ({ id: k.id, plan: planKey(k.key) }));
  for (const { id, plan } of plans) {
    switch (plan.kind) {
      case 'unsupported':
        skippedKeys.push({ id, reason: 'unsupported' });
        break;
      case 'regex':
        if (regexLeft <= 0 || rulesLeft <= 0) {
          skippedKeys.push({ id, reason: regexLeft <= 0 ? 'regexLimit' : 'ruleLimit' });
          break;
        }
        regexLeft--;
        rulesLeft--;
        regexRuleCount++;
        rules.push(allow({ regexFilter: plan.regexFilter }));
        break;
      case 'subdomains': {
        if (subdomainRoots.has(plan.domain)) break;
        const newHosts = plan.exactHosts.filter((h) => !exactHosts.has(h));
        // the first domain of each list pays for the list's rule
        const listCost = subdomainRoots.size % DOMAINS_PER_RULE === 0 ? 1 : 0;
        const cost = listCost + newHosts.length * ALL_SCHEMES.length;
        if (cost > rulesLeft) {
          skippedKeys.push({ id, reason: 'ruleLimit' });
          break;
        }
        rulesLeft -= cost;
        subdomainRoots.add(plan.domain);
        for (const host of newHosts) addExactHost(host);
        break;
      }
      case 'exactHosts': {
        const newHosts = plan.hosts.filter((h) => !exactHosts.has(h));
        const cost = newHosts.length * ALL_SCHEMES.length;
        if (cost > rulesLeft) {
          skippedKeys.push({ id, reason: 'ruleLimit' });
          break;
        }
        rulesLeft -= cost;
        for (const host of newHosts) addExactHost(host);
        break;
      }
      case 'urlFilters': {
        const fresh = plan.urlFilters.filter((f) => !urlFilters.has(f));
        if (fresh.length > rulesLeft) {
          skippedKeys.push({ id, reason: 'ruleLimit' });
          break;
        }
        rulesLeft -= fresh.length;
        for (const filter of fresh) {
          urlFilters.add(filter);
          rules.push(allow({ urlFilter: filter }));
        }
        break;
      }
    }
  }

  function addExactHost(host: string) {
    exactHosts.add(host);
    for (const scheme of ALL_SCHEMES) {
      // `requestDomains` keeps `|scheme://host^` on the host even when the URL has credentials
      // (`https://host:x@other.net/`): then only a subdomain of host could slip through. An IPv6
      // host has no domain form, so it goes without.
      const onHost = host.startsWith('[') ? {} : { requestDomains: [host] };
      rules.push(allow({ urlFilter: `|${scheme}://${host}^`, ...onHost }));
    }
  }

  const roots = [...subdomainRoots];
  for (let i = 0; i < roots.length; i += DOMAINS_PER_RULE) {
    rules.push(allow({ requestDomains: roots.slice(i, i + DOMAINS_PER_RULE) }));
  }
  return { rules, skippedKeys, regexRuleCount };
}

function planKey(key: SharedKey): KeyPlan {
  if (key.type === 'ipAddress') {
    const host = ipHost(key.ipAddress);
    return host ? { kind: 'exactHosts', hosts: [host] } : { kind: 'unsupported' };
  }
  if (key.type === 'path') return planPathKey(key.path);
  // domain, anySubdomain and domainRegex: the host meaning shared with Keyward DNS (host-keys.ts)
  const plan = hostKeyPlan(key);
  switch (plan.kind) {
    case 'exactHosts':
    case 'subdomains':
      return plan;
    case 'domainPattern':
      return { kind: 'regex', regexFilter: domainRegexFilter(plan.pattern) };
    default:
      return { kind: 'unsupported' };
  }
}

export { asciiHost, domainKeyHosts } from './host-keys.ts';

/** An IP address as it appears in a canonical URL: `1.2.3.4`, `[2001:db8::1]`. */
export function ipHost(ipAddress: string): string | undefined {
  const address = ipAddress.trim().replace(/^\[|\]$/g, '');
  try {
    const host = new URL(`http://${address.includes(':') ? `[${address}]` : address}/`).hostname;
    const isIp = host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host);
    return isIp ? host : undefined;
  } catch {
    return undefined;
  }
}

/** A host character in a URL: confines a pattern's `*` to the host part. */
const HOST_CHAR = '[^/:?#@]';

/**
 * A `domainRegex` key as a regexFilter. The Mac searches its pattern (`.` literal, `*` any run of
 * characters) anywhere in the hostname; in a whole URL that search must stay inside the host, so
 * `*` becomes a run of host characters (no `/ : ? # @`) and the pattern sits between the scheme and
 * the port or path. A URL with credentials therefore never matches (blocked: fails closed).
 */
export function domainRegexFilter(pattern: string): string {
  const body = pattern
    .split('*')
    .map((part) => escapeRegex(part))
    .join(`${HOST_CHAR}*`);
  return `^(?:https?|wss?)://${HOST_CHAR}*${body}${HOST_CHAR}*(?::\\d+)?(?:/|$)`;
}

function planPathKey(path: string): KeyPlan {
  const lower = path.trim().toLowerCase();
  const slash = lower.indexOf('/');
  const domain = asciiHost(slash === -1 ? lower : lower.slice(0, slash));
  if (!domain) return { kind: 'unsupported' };
  const rest = slash === -1 ? '' : lower.slice(slash + 1);
  // DNR filters are ASCII; a URL's own path is percent-encoded, which the Mac does not undo either
  if (/[\s#]|[^\x21-\x7e]/.test(rest)) return { kind: 'unsupported' };
  if (rest.includes('*')) {
    const body = rest
      .split('*')
      .map((part) => escapeRegex(part))
      .join('.*');
    return { kind: 'regex', regexFilter: `^https?://${escapeRegex(domain)}/${body}$` };
  }
  // the URL, less one trailing slash, equals domain/rest less one trailing slash
  const bare = `${domain}/${rest}`.replace(/\/$/, '');
  if (/[|^]/.test(bare)) {
    return { kind: 'regex', regexFilter: `^https?://${escapeRegex(bare)}/?$` };
  }
  const tails = bare.includes('/') ? [bare, `${bare}/`] : [`${bare}/`];
  return {
    kind: 'urlFilters',
    urlFilters: HTTP_SCHEMES.flatMap((scheme) => tails.map((tail) => `|${scheme}://${tail}|`)),
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}

/** What the browser reports as its filter state (issue 32), in the Mac's terms the dashboard shows. */
export type ReportedBrowserState =
  | { case: 'on' }
  | { case: 'suspended'; resuming?: string }
  | { case: 'downtime'; ending?: string };

/**
 * The state a connected browser reports on its channel, from the rules it applied: filtering is
 * "on", a suspension until its end, downtime until its next boundary. A browser that is not
 * connected reports nothing (the server does not know it).
 */
export function reportedBrowserState(
  compiled: Pick<CompiledBrowserRules, 'mode' | 'nextChangeAt'>,
): ReportedBrowserState | undefined {
  const at = compiled.nextChangeAt?.toISOString().replace(/\.\d{3}Z$/, 'Z');
  switch (compiled.mode) {
    case 'filtering':
    case 'timesUp':
      return { case: 'on' };
    // issue 34: the Mac's wire has no pause; blocking everything is its downtime
    case 'paused':
      return at ? { case: 'downtime', ending: at } : { case: 'downtime' };
    case 'suspended':
      return at ? { case: 'suspended', resuming: at } : { case: 'suspended' };
    case 'downtime':
      return at ? { case: 'downtime', ending: at } : { case: 'downtime' };
    case 'notConnected':
      return undefined;
  }
}
