import type { AppScope, SharedKey, SingleAppScope } from '@keyward/contract/shared';
import { parse } from 'tldts';

// ---------------------------------------------------------------------------
// Key editor state (spec §3)
// ---------------------------------------------------------------------------

export type KeyType = 'website' | 'app';
export type AddressType = 'standard' | 'strict' | 'ip' | 'domainRegex';
export type AddressScope = 'webBrowsers' | 'unrestricted' | 'singleApp';
export type AppIdentificationType = 'slug' | 'bundleId';
export type KeyAppScope = 'unrestricted' | 'address';

export interface KeyEditorState {
  keyType: KeyType;
  address: string;
  addressType: AddressType;
  addressScope: AddressScope;
  appIdentificationType: AppIdentificationType;
  appScope: KeyAppScope;
  appSlug: string | undefined;
  appBundleId: string;
  /** ISO date string; undefined = the key never expires. */
  expiration: string | undefined;
  comment: string;
}

export function newKeyEditorState(): KeyEditorState {
  return {
    keyType: 'website',
    address: '',
    addressType: 'standard',
    addressScope: 'webBrowsers',
    appIdentificationType: 'slug',
    appScope: 'unrestricted',
    appSlug: undefined,
    appBundleId: '',
    expiration: undefined,
    comment: '',
  };
}

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------

export const INVALID_ADDRESS_HINT = 'invalid address';
export const IP_ADDRESS_HINT =
  'That looks like an IP address. Turn on Advanced and pick the IP address type.';
export const SUBDOMAIN_EXAMPLES = ['www', 'images', 'cdn', 'static', 'api', 'docs'] as const;
export const MIN_BUNDLE_ID_LENGTH = 3;
export const MAX_HOSTNAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;
export const COMMENT_PREVIEW_LENGTH = 30;
export const DEFAULT_EXPIRATION_DAYS = 7;

/** Video, social, cloud and CDN hosts: a key may only unlock the exact domain (ARCHITECTURE decision 3). */
export const LARGE_SHARED_HOSTS: readonly string[] = [
  'youtube.com',
  'googlevideo.com',
  'facebook.com',
  'instagram.com',
  'tiktok.com',
  'x.com',
  'twitter.com',
  'reddit.com',
  'discord.com',
  'twitch.tv',
  'vimeo.com',
  'pinterest.com',
  'snapchat.com',
  'linkedin.com',
  'google.com',
  'googleusercontent.com',
  'googleapis.com',
  'amazonaws.com',
  'cloudfront.net',
  'akamaihd.net',
  'fastly.net',
  'azureedge.net',
  'azurewebsites.net',
  'github.io',
  'githubusercontent.com',
  'herokuapp.com',
  'netlify.app',
  'vercel.app',
  'pages.dev',
  'workers.dev',
  'web.app',
  'firebaseapp.com',
  'appspot.com',
  'blogspot.com',
  'wordpress.com',
  'tumblr.com',
  'dropbox.com',
];

export function isLargeSharedHost(domain: string): boolean {
  const host = domain.toLowerCase().replace(/\.$/, '');
  return LARGE_SHARED_HOSTS.some((shared) => host === shared || host.endsWith(`.${shared}`));
}

// ---------------------------------------------------------------------------
// Address normalisation and validation
// ---------------------------------------------------------------------------

/**
 * Turns whatever was typed or pasted into a bare lowercase host: scheme, credentials, path, query,
 * fragment and port go. IPv6 stays whole (brackets removed, zone id kept).
 */
export function normaliseAddress(input: string): string {
  let rest = input.trim();
  rest = rest.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  rest = rest.replace(/^\/\//, '');
  const end = rest.search(/[/?#]/);
  if (end !== -1) rest = rest.slice(0, end);
  const at = rest.lastIndexOf('@');
  if (at !== -1) rest = rest.slice(at + 1);
  rest = rest.trim().toLowerCase();

  if (rest.startsWith('[')) {
    const close = rest.indexOf(']');
    return close === -1 ? rest.slice(1) : rest.slice(1, close);
  }
  const colons = rest.split(':').length - 1;
  // One colon is host:port; two or more can only be a bare IPv6 address.
  if (colons === 1) rest = rest.slice(0, rest.indexOf(':'));
  return rest;
}

/**
 * A leading `www.` on a standard key (the site and its subdomains) is dropped: `www.example.com`
 * and `example.com` would unlock the same addresses, and the stored domain reads as the site. It
 * is kept when it matters: a strict key (exactly that host), a large shared host (only the exact
 * host is ever unlocked, and `www.youtube.com` is where the site lives), or when what remains
 * would not be a site of its own (`www.co.uk`).
 */
export function keyAddress(input: string, addressType: AddressType): string {
  const address = normaliseAddress(input);
  if (addressType !== 'standard' || !address.startsWith('www.')) return address;
  const site = address.slice('www.'.length);
  if (isLargeSharedHost(address) || !isRegistrableDomain(site)) return address;
  return site;
}

export type WebsiteDomain = { ok: true; domain: string } | { ok: false; error: string };

/**
 * A website typed or pasted into a domain list (the iOS allowed and blocked domains), read by the
 * key wizard's rules for a standard key, since the list covers each site with its subdomains:
 * scheme, credentials, path, query, port and letter case go, a leading `www.` goes as the wizard
 * drops it. What is left must be a website, else the wizard's words say why.
 */
export function websiteDomain(input: string): WebsiteDomain {
  const domain = keyAddress(input, 'standard');
  if (domain === '') return { ok: false, error: 'Enter a website address.' };
  if (isIpAddress(domain)) {
    return {
      ok: false,
      error: `'${domain}' is an IP address. Enter a website address, such as khanacademy.org.`,
    };
  }
  if (!isRegistrableDomain(domain)) return { ok: false, error: notAWebsiteAddress(domain) };
  return { ok: true, domain };
}

function notAWebsiteAddress(address: string): string {
  return `'${address}' is not a valid website address.`;
}

/** What the address field says about `www.` for the chosen address type. */
export function wwwHint(addressType: AddressType): string | undefined {
  switch (addressType) {
    case 'standard':
      return "A leading 'www.' is left out: the key unlocks the site and every subdomain, www included.";
    case 'strict':
      return "Exactly this address: 'www.example.com' and 'example.com' are different keys.";
    default:
      return undefined;
  }
}

/** The example subdomains worth showing in front of `domain`: never one it already starts with. */
export function subdomainExamplesFor(domain: string): string[] {
  return SUBDOMAIN_EXAMPLES.filter((example) => !domain.startsWith(`${example}.`));
}

export function isValidIpv4(address: string): boolean {
  const parts = address.split('.');
  if (parts.length !== 4) return false;
  return parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255);
}

/** IPv6 in any standard notation, with an optional zone id (`fe80::1%en0`). */
export function isValidIpv6(address: string): boolean {
  const [body = '', zone, ...extra] = address.split('%');
  if (extra.length > 0) return false;
  if (zone !== undefined && !/^[a-z0-9._~-]+$/i.test(zone)) return false;
  if (!body.includes(':')) return false;

  const halves = body.split('::');
  if (halves.length > 2) return false;
  const groupsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const groups = [...head, ...tail];

  let width = 0;
  for (const [index, group] of groups.entries()) {
    const isLast = index === groups.length - 1;
    if (isLast && group.includes('.')) {
      if (!isValidIpv4(group)) return false;
      width += 2;
    } else if (/^[0-9a-f]{1,4}$/i.test(group)) {
      width += 1;
    } else {
      return false;
    }
  }
  return halves.length === 2 ? width < 8 : width === 8;
}

export function isIpAddress(address: string): boolean {
  return isValidIpv4(address) || isValidIpv6(address);
}

/** Label lengths 1–63, total ≤ 253, letters (any script), digits, `-` and `_`, no edge hyphens. */
export function isValidHostname(hostname: string): boolean {
  if (hostname.length === 0 || hostname.length > MAX_HOSTNAME_LENGTH) return false;
  if (hostname !== hostname.toLowerCase()) return false;
  return hostname
    .split('.')
    .every(
      (label) =>
        label.length >= 1 &&
        label.length <= MAX_LABEL_LENGTH &&
        /^[\p{L}\p{N}_-]+$/u.test(label) &&
        !label.startsWith('-') &&
        !label.endsWith('-'),
    );
}

/** Conversion needs more than 3 characters and a dot (spec §5). */
export function hasAddressShape(address: string): boolean {
  return address.length > 3 && address.includes('.');
}

/** A host under a registrable domain of the public suffix list (ICANN or private section). */
export function isRegistrableDomain(hostname: string): boolean {
  if (!hasAddressShape(hostname) || !isValidHostname(hostname) || isIpAddress(hostname)) {
    return false;
  }
  const withPrivate = parse(hostname, { allowPrivateDomains: true });
  if (withPrivate.isIp) return false;
  if (withPrivate.domain && (withPrivate.isIcann || withPrivate.isPrivate)) return true;
  // A private suffix such as github.io is itself a registrable ICANN domain.
  const icannOnly = parse(hostname);
  return Boolean(icannOnly.domain && icannOnly.isIcann);
}

/**
 * A pattern needs a `*` and must be a registrable domain once each `*` stands for a label. The label
 * in front of the public suffix may not be a bare `*`: `*.com` would unlock every .com site.
 */
function isValidDomainPattern(pattern: string): boolean {
  if (!pattern.includes('*')) return false;
  const sample = pattern.replaceAll('*', 'x');
  if (!isRegistrableDomain(sample)) return false;
  const { publicSuffix } = parse(sample, { allowPrivateDomains: true });
  const labels = pattern.split('.');
  const suffixLabels = publicSuffix ? publicSuffix.split('.').length : 1;
  return labels[labels.length - suffixLabels - 1] !== '*';
}

export type AddressCheck = { ok: true } | { ok: false; hint: string };

/** Checks an already normalised address (see normaliseAddress) for the chosen address type. */
export function validateAddress(address: string, addressType: AddressType): AddressCheck {
  switch (addressType) {
    case 'standard':
    case 'strict':
      if (isIpAddress(address)) return { ok: false, hint: IP_ADDRESS_HINT };
      return isRegistrableDomain(address)
        ? { ok: true }
        : { ok: false, hint: INVALID_ADDRESS_HINT };
    case 'ip':
      return isIpAddress(address) ? { ok: true } : { ok: false, hint: INVALID_ADDRESS_HINT };
    case 'domainRegex':
      return isValidDomainPattern(address)
        ? { ok: true }
        : { ok: false, hint: INVALID_ADDRESS_HINT };
  }
}

// ---------------------------------------------------------------------------
// Editor state ⇄ SharedKey
// ---------------------------------------------------------------------------

export type KeyConversion =
  | { ok: true; key: SharedKey; comment: string | undefined; expiration: string | undefined }
  | { ok: false; error: string };

type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

function singleAppScopeOf(state: KeyEditorState): Checked<SingleAppScope> {
  if (state.appIdentificationType === 'bundleId') {
    const bundleId = state.appBundleId.trim();
    if (bundleId.length < MIN_BUNDLE_ID_LENGTH) {
      return { ok: false, error: 'Enter a bundle id of at least 3 characters.' };
    }
    return { ok: true, value: { type: 'bundleId', bundleId } };
  }
  const slug = state.appSlug?.trim();
  if (!slug) return { ok: false, error: 'Choose an app.' };
  return { ok: true, value: { type: 'identifiedAppSlug', identifiedAppSlug: slug } };
}

function addressKeyOf(state: KeyEditorState, scope: AppScope): Checked<SharedKey> {
  const address = keyAddress(state.address, state.addressType);
  if (address === '') return { ok: false, error: 'Enter a website address.' };
  if (state.addressType !== 'ip' && !hasAddressShape(address)) {
    return { ok: false, error: notAWebsiteAddress(address) };
  }
  const check = validateAddress(address, state.addressType);
  if (!check.ok) {
    const error =
      check.hint === INVALID_ADDRESS_HINT
        ? state.addressType === 'ip'
          ? `'${address}' is not a valid IP address.`
          : notAWebsiteAddress(address)
        : check.hint;
    return { ok: false, error };
  }
  switch (state.addressType) {
    case 'standard':
      return {
        ok: true,
        value: {
          type: isLargeSharedHost(address) ? 'domain' : 'anySubdomain',
          domain: address,
          scope,
        },
      };
    case 'strict':
      return { ok: true, value: { type: 'domain', domain: address, scope } };
    case 'ip':
      return { ok: true, value: { type: 'ipAddress', ipAddress: address, scope } };
    case 'domainRegex':
      return { ok: true, value: { type: 'domainRegex', pattern: address, scope } };
  }
}

function sharedKeyOf(state: KeyEditorState): Checked<SharedKey> {
  if (state.keyType === 'app') {
    const app = singleAppScopeOf(state);
    if (!app.ok) return app;
    if (state.appScope === 'unrestricted') {
      return { ok: true, value: { type: 'skeleton', scope: app.value } };
    }
    return addressKeyOf(state, { type: 'single', single: app.value });
  }
  switch (state.addressScope) {
    case 'webBrowsers':
      return addressKeyOf(state, { type: 'webBrowsers' });
    case 'unrestricted':
      return addressKeyOf(state, { type: 'unrestricted' });
    case 'singleApp': {
      const app = singleAppScopeOf(state);
      if (!app.ok) return app;
      return addressKeyOf(state, { type: 'single', single: app.value });
    }
  }
}

export function keyEditorStateToSharedKey(state: KeyEditorState): KeyConversion {
  const key = sharedKeyOf(state);
  if (!key.ok) return key;
  const comment = state.comment.trim();
  return {
    ok: true,
    key: key.value,
    comment: comment === '' ? undefined : comment,
    expiration: state.expiration,
  };
}

function withSingleApp(state: KeyEditorState, single: SingleAppScope): KeyEditorState {
  return single.type === 'bundleId'
    ? { ...state, appIdentificationType: 'bundleId', appBundleId: single.bundleId }
    : { ...state, appIdentificationType: 'slug', appSlug: single.identifiedAppSlug };
}

/**
 * Opens a stored key in the editor. An address key limited to one app opens as a website key with
 * the single-app scope (the same SharedKey an app key with one address produces).
 */
export function sharedKeyToKeyEditorState(
  key: SharedKey,
  comment?: string,
  expiration?: string,
): KeyEditorState {
  const base: KeyEditorState = { ...newKeyEditorState(), comment: comment ?? '', expiration };
  if (key.type === 'skeleton') {
    return withSingleApp({ ...base, keyType: 'app', appScope: 'unrestricted' }, key.scope);
  }
  const address = addressFieldsOf(key);
  const withAddress = { ...base, ...address };
  switch (key.scope.type) {
    case 'webBrowsers':
      return { ...withAddress, addressScope: 'webBrowsers' };
    case 'unrestricted':
      return { ...withAddress, addressScope: 'unrestricted' };
    case 'single':
      return withSingleApp({ ...withAddress, addressScope: 'singleApp' }, key.scope.single);
  }
}

function addressFieldsOf(
  key: Exclude<SharedKey, { type: 'skeleton' }>,
): Pick<KeyEditorState, 'address' | 'addressType'> {
  switch (key.type) {
    case 'anySubdomain':
      return { address: key.domain, addressType: 'standard' };
    case 'domain':
      // A large shared host saved as standard comes back as an exact domain; both mean the same.
      return { address: key.domain, addressType: 'strict' };
    case 'ipAddress':
      return { address: key.ipAddress, addressType: 'ip' };
    case 'domainRegex':
      return { address: key.pattern, addressType: 'domainRegex' };
    case 'path':
      // The editor has no path type; the path is shown and saving keeps only its host.
      return { address: key.path, addressType: 'strict' };
  }
}

// ---------------------------------------------------------------------------
// Server-side check of a key received on the wire (SaveKey)
// ---------------------------------------------------------------------------

function singleAppScopeProblem(scope: SingleAppScope): string | null {
  if (scope.type === 'bundleId') {
    return scope.bundleId.trim().length < MIN_BUNDLE_ID_LENGTH
      ? `'${scope.bundleId}' is not a valid bundle id: it needs at least ${MIN_BUNDLE_ID_LENGTH} characters`
      : null;
  }
  return scope.identifiedAppSlug.trim() === '' ? 'The key must name an app' : null;
}

function appScopeProblem(scope: AppScope): string | null {
  return scope.type === 'single' ? singleAppScopeProblem(scope.single) : null;
}

function domainProblem(domain: string): string | null {
  if (isIpAddress(domain)) return `'${domain}' is an IP address: use an IP address key`;
  return isRegistrableDomain(domain) ? null : `'${domain}' is not a valid website address`;
}

/** null when the key may be stored, else a message naming the problem. */
export function validateSharedKey(key: SharedKey): string | null {
  switch (key.type) {
    case 'skeleton':
      return singleAppScopeProblem(key.scope);
    case 'anySubdomain': {
      const problem = domainProblem(key.domain);
      if (problem) return problem;
      if (isLargeSharedHost(key.domain)) {
        return `'${key.domain}' is a large shared host: a key can only unlock that exact domain`;
      }
      return appScopeProblem(key.scope);
    }
    case 'domain':
      return domainProblem(key.domain) ?? appScopeProblem(key.scope);
    case 'ipAddress':
      return isIpAddress(key.ipAddress)
        ? appScopeProblem(key.scope)
        : `'${key.ipAddress}' is not a valid IP address`;
    case 'domainRegex':
      if (!key.pattern.includes('*')) return `The pattern '${key.pattern}' must contain a *`;
      return isValidDomainPattern(key.pattern)
        ? appScopeProblem(key.scope)
        : `'${key.pattern}' is not a valid website address pattern`;
    case 'path': {
      const slash = key.path.indexOf('/');
      const host = slash === -1 ? key.path : key.path.slice(0, slash);
      return domainProblem(host) ?? appScopeProblem(key.scope);
    }
  }
}

// ---------------------------------------------------------------------------
// Wording
// ---------------------------------------------------------------------------

/** The catalogue name of an app by slug ('zoom' → 'Zoom'); undefined when unknown. */
export type AppNameOf = (slug: string) => string | undefined;

const noAppNames: AppNameOf = () => undefined;

function describeSingleApp(scope: SingleAppScope, appName: AppNameOf): string {
  if (scope.type === 'bundleId') return scope.bundleId;
  return appName(scope.identifiedAppSlug) ?? scope.identifiedAppSlug;
}

function describeScope(scope: AppScope, appName: AppNameOf): string {
  switch (scope.type) {
    case 'webBrowsers':
      return 'in web browsers';
    case 'unrestricted':
      return 'in any app';
    case 'single':
      return `in the app ${describeSingleApp(scope.single, appName)}`;
  }
}

/** One line for key lists and the keyCreated security event; apps by slug or bundle id. */
export function describeKey(key: SharedKey): string {
  return describeKeyNamingApps(key, noAppNames);
}

/**
 * describeKey with apps from the catalogue named as parents know them ('Zoom') when `appName`
 * knows the slug, else by the slug itself.
 */
export function describeKeyNamingApps(key: SharedKey, appName: AppNameOf): string {
  switch (key.type) {
    case 'skeleton':
      return `all internet access for the app ${describeSingleApp(key.scope, appName)}`;
    case 'anySubdomain':
      return `${key.domain} and its subdomains ${describeScope(key.scope, appName)}`;
    case 'domain':
      // issue 32: a `domain` key also opens www. (browser-rules domainKeyHosts), so not "exact"
      return `${key.domain} (this domain and www. only) ${describeScope(key.scope, appName)}`;
    case 'domainRegex':
      return `${key.pattern} ${describeScope(key.scope, appName)}`;
    case 'ipAddress':
      return `IP address ${key.ipAddress} ${describeScope(key.scope, appName)}`;
    case 'path':
      return `${key.path} ${describeScope(key.scope, appName)}`;
  }
}

/** An AppNameOf over a catalogue list (GetIdentifiedApps). */
export function appNamesOf(apps: readonly { slug: string; name: string }[]): AppNameOf {
  const names = new Map(apps.map((app) => [app.slug, app.name]));
  return (slug) => names.get(slug);
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function defaultExpiration(now: Date): string {
  return new Date(now.getTime() + DEFAULT_EXPIRATION_DAYS * DAY_MS).toISOString();
}

export function commentPreview(comment: string): string {
  const chars = Array.from(comment.trim());
  if (chars.length <= COMMENT_PREVIEW_LENGTH) return chars.join('');
  return `${chars.slice(0, COMMENT_PREVIEW_LENGTH).join('').trimEnd()}…`;
}

// ---------------------------------------------------------------------------
// Key wizard steps (spec §4)
// ---------------------------------------------------------------------------

export type KeyWizardStep =
  | 'SetKeyType'
  | 'WebsiteKey_SetAddress'
  | 'WebsiteKey_SetAppScope'
  | 'WebsiteKey_Advanced_ChooseApp'
  | 'AppKey_ChooseApp'
  | 'AppKey_SetAppScope'
  | 'AppKey_Advanced_SetAddress'
  | 'Expiration'
  | 'Comment';

export function wizardSteps(state: KeyEditorState): KeyWizardStep[] {
  const middle: KeyWizardStep[] =
    state.keyType === 'website'
      ? [
          'WebsiteKey_SetAddress',
          'WebsiteKey_SetAppScope',
          ...(state.addressScope === 'singleApp'
            ? (['WebsiteKey_Advanced_ChooseApp'] as const)
            : []),
        ]
      : [
          'AppKey_ChooseApp',
          'AppKey_SetAppScope',
          ...(state.appScope === 'address' ? (['AppKey_Advanced_SetAddress'] as const) : []),
        ];
  return ['SetKeyType', ...middle, 'Expiration', 'Comment'];
}

function isAddressStepValid(state: KeyEditorState): boolean {
  const address = keyAddress(state.address, state.addressType);
  if (state.addressType !== 'ip' && !hasAddressShape(address)) return false;
  return validateAddress(address, state.addressType).ok;
}

export function isStepValid(step: KeyWizardStep, state: KeyEditorState): boolean {
  switch (step) {
    case 'SetKeyType':
    case 'WebsiteKey_SetAppScope':
    case 'AppKey_SetAppScope':
    case 'Comment':
      return true;
    case 'WebsiteKey_SetAddress':
    case 'AppKey_Advanced_SetAddress':
      return isAddressStepValid(state);
    case 'WebsiteKey_Advanced_ChooseApp':
    case 'AppKey_ChooseApp':
      return singleAppScopeOf(state).ok;
    case 'Expiration':
      return state.expiration === undefined || !Number.isNaN(Date.parse(state.expiration));
  }
}

/** The step after `step`, or undefined at the end (or when `step` is not on this state's path). */
export function nextStep(step: KeyWizardStep, state: KeyEditorState): KeyWizardStep | undefined {
  const steps = wizardSteps(state);
  const index = steps.indexOf(step);
  return index === -1 ? undefined : steps[index + 1];
}

export function previousStep(
  step: KeyWizardStep,
  state: KeyEditorState,
): KeyWizardStep | undefined {
  const steps = wizardSteps(state);
  const index = steps.indexOf(step);
  return index <= 0 ? undefined : steps[index - 1];
}

// ---------------------------------------------------------------------------
// Why a key cannot be saved (issue 32: the save button was greyed out with no reason)
// ---------------------------------------------------------------------------

export interface KeyProblem {
  /** what is wrong, in the parent's words */
  reason: string;
  /** what would work instead */
  whatWorks: string;
}

const BY_IP_OR_APP =
  'If you know its IP address, turn on Advanced and choose "IP address", or make an app key for the app that uses it.';

/** Why this key cannot be saved as it is, and what would work; undefined when it can. */
export function keyProblem(state: KeyEditorState): KeyProblem | undefined {
  const conversion = keyEditorStateToSharedKey(state);
  if (conversion.ok) return undefined;
  const usesAddress = state.keyType === 'website' || state.appScope === 'address';
  const address = keyAddress(state.address, state.addressType);
  const isNamed = state.addressType === 'standard' || state.addressType === 'strict';
  if (usesAddress && isNamed) {
    if (address !== '' && isIpAddress(address)) {
      return { reason: `'${address}' is an IP address.`, whatWorks: IP_ADDRESS_HINT };
    }
    if (isValidHostname(address) && !address.includes('.')) {
      return {
        reason: `'${address}' is a name on a local network, not a website address: a key cannot unlock it by name.`,
        whatWorks: BY_IP_OR_APP,
      };
    }
    if (isValidHostname(address) && hasAddressShape(address) && !isRegistrableDomain(address)) {
      const ending = address.slice(address.lastIndexOf('.'));
      return {
        reason: `'${address}' does not end in a public domain ending ('${ending}' is not one, unlike .com or .org): a key cannot unlock it by name.`,
        whatWorks: BY_IP_OR_APP,
      };
    }
    return {
      reason: conversion.error,
      whatWorks: 'Enter a website address such as khanacademy.org or docs.google.com.',
    };
  }
  return { reason: conversion.error, whatWorks: 'Fix the step above, then save.' };
}
