import { ConfigError } from '../config.ts';
import { isUuid } from '../services/tokens.ts';

// Operator settings of the iOS app's unauthenticated operations, read with the rest of the
// configuration (config.ts; a bad value is a ConfigError naming the variable):
//   IOS_RECOVERY_RETRY_VENDOR_IDS  comma-separated vendor ids (or `*` for every device) told to
//                                  retry when they ask RecoveryDirective; default none
//   IOS_CONNECT_ACCOUNT_ENABLED    1/true: ConnectAccountFeatureFlag offers connecting a parent
//                                  account; default off

type Env = Record<string, string | undefined>;

export interface IosAppSettings {
  /** `'*'`: every device; else the lowercase vendor ids. */
  recoveryRetry: '*' | ReadonlySet<string>;
  connectAccountEnabled: boolean;
}

export function parseIosAppSettings(env: Env): IosAppSettings {
  return {
    recoveryRetry: parseVendorIds(env.IOS_RECOVERY_RETRY_VENDOR_IDS?.trim() ?? ''),
    connectAccountEnabled: parseFlag(
      'IOS_CONNECT_ACCOUNT_ENABLED',
      env.IOS_CONNECT_ACCOUNT_ENABLED?.trim() ?? '',
    ),
  };
}

export function isToldToRetry(settings: IosAppSettings, vendorId: string | undefined): boolean {
  if (settings.recoveryRetry === '*') return true;
  return vendorId !== undefined && settings.recoveryRetry.has(vendorId.toLowerCase());
}

function parseVendorIds(raw: string): '*' | ReadonlySet<string> {
  if (raw === '*') return '*';
  const ids = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) {
    throw new ConfigError(
      'IOS_RECOVERY_RETRY_VENDOR_IDS',
      `must be * or comma-separated UUIDs, got "${bad}"`,
    );
  }
  return new Set(ids.map((id) => id.toLowerCase()));
}

function parseFlag(name: string, raw: string): boolean {
  if (raw === '' || raw === '0' || raw.toLowerCase() === 'false') return false;
  if (raw === '1' || raw.toLowerCase() === 'true') return true;
  throw new ConfigError(name, `must be 1, true, 0 or false, got "${raw}"`);
}
