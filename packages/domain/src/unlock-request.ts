import type { UnlockRequest } from '@keyward/contract/shared';
import { isIpAddress, type KeyEditorState, newKeyEditorState, normaliseAddress } from './keys.ts';

/**
 * Issue 33: the app id a Keyward DNS device's unlock requests carry (there is no app to name). DNS
 * cannot tell apps apart, so such a request becomes a key for the address, not for an app.
 */
export const DNS_REQUEST_APP = 'dns:keyward';

export function isBrowserApp(request: Pick<UnlockRequest, 'appCategories'>): boolean {
  return request.appCategories.includes('browser');
}

/**
 * The key editor's starting point for accepting an unlock request (issue 7): the exact address the
 * child was blocked from (url host, else domain, else IP). A browser's request (or one from no
 * known app) becomes a domain key for web browsers; another app's request becomes an app key for
 * that app, scoped to the address. With no address at all, an app key for that app, any address.
 */
export function unlockRequestToKeyEditorState(request: UnlockRequest): KeyEditorState {
  const base = newKeyEditorState();
  const { hasApp, ...app } = appFieldsOf(request);
  const address = addressOf(request);

  if (address === undefined) {
    return { ...base, ...app, keyType: 'app', appScope: 'unrestricted' };
  }
  const addressType = isIpAddress(address) ? 'ip' : 'strict';
  if (isBrowserApp(request) || !hasApp || request.appBundleId === DNS_REQUEST_APP) {
    return { ...base, address, addressType, addressScope: 'webBrowsers' };
  }
  return { ...base, ...app, keyType: 'app', appScope: 'address', address, addressType };
}

function addressOf(request: UnlockRequest): string | undefined {
  for (const candidate of [request.url, request.domain, request.ipAddress]) {
    const address = candidate ? normaliseAddress(candidate) : '';
    if (address !== '') return address;
  }
  return undefined;
}

function appFieldsOf(
  request: UnlockRequest,
): Pick<KeyEditorState, 'appIdentificationType' | 'appSlug' | 'appBundleId'> & { hasApp: boolean } {
  const bundleId = request.appBundleId?.trim() ?? '';
  const slug = request.appSlug?.trim();
  if (slug) {
    return { appIdentificationType: 'slug', appSlug: slug, appBundleId: bundleId, hasApp: true };
  }
  return {
    appIdentificationType: 'bundleId',
    appSlug: undefined,
    appBundleId: bundleId,
    hasApp: bundleId !== '',
  };
}
