import type { IosAppSettings } from '../config.ts';

// The iOS app's operator settings are parsed with the rest of the configuration
// (parseIosAppSettings in config.ts); this is how the iOS operations read them.
export { type IosAppSettings, parseIosAppSettings } from '../config.ts';

export function isToldToRetry(settings: IosAppSettings, vendorId: string | undefined): boolean {
  if (settings.recoveryRetry === '*') return true;
  return vendorId !== undefined && settings.recoveryRetry.has(vendorId.toLowerCase());
}
