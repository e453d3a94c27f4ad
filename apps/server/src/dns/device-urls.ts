import type { Config } from '../config.ts';
import { safeEqual, type TokenService } from '../services/tokens.ts';

// Issue 33: where a DNS device reaches Keyward DNS, and its Apple configuration profile.

export function dohUrlOf(config: Pick<Config, 'publicUrl'>, deviceId: string): string {
  return new URL(`/dns-query/${deviceId}`, config.publicUrl).toString();
}

export function dotHostnameOf(config: Pick<Config, 'dns'>, deviceId: string): string {
  return `${deviceId}.${config.dns.dotDomain}`;
}

export function appleProfileUrlOf(config: Pick<Config, 'publicUrl'>, deviceId: string): string {
  return new URL(`/dns-profile/${deviceId}.mobileconfig`, config.publicUrl).toString();
}

/** How long a dashboard's link to a profile with a removal password opens it. */
export const PROFILE_LINK_SECONDS = 60 * 60;

function profileLinkSignature(tokens: TokenService, deviceId: string, expires: number): string {
  return tokens.hmac(`dns-profile|${deviceId}|${expires}`);
}

/**
 * The profile's address as the dashboard gives it to the parent. A profile with a removal password
 * carries the password (a profile is a plist in clear text), and its plain address needs no
 * session and holds only the device id, which the child can read in the device's settings; so its
 * link is signed and opens it for PROFILE_LINK_SECONDS.
 */
export function parentAppleProfileUrlOf(
  config: Pick<Config, 'publicUrl'>,
  tokens: TokenService,
  deviceId: string,
  hasRemovalPassword: boolean,
  now: Date,
): string {
  const url = new URL(appleProfileUrlOf(config, deviceId));
  if (hasRemovalPassword) {
    const expires = Math.floor(now.getTime() / 1000) + PROFILE_LINK_SECONDS;
    url.searchParams.set('expires', String(expires));
    url.searchParams.set('signature', profileLinkSignature(tokens, deviceId, expires));
  }
  return url.toString();
}

/** Whether a profile link's `expires` and `signature` are the dashboard's and not yet past. */
export function isProfileLinkValid(
  tokens: TokenService,
  deviceId: string,
  link: { expires?: unknown; signature?: unknown },
  now: Date,
): boolean {
  // a query string may repeat a parameter (an array): only one plain value is a link's
  if (typeof link.expires !== 'string' || typeof link.signature !== 'string') return false;
  if (!/^\d{1,12}$/.test(link.expires)) return false;
  const expires = Number(link.expires);
  if (expires * 1000 <= now.getTime()) return false;
  return safeEqual(link.signature, profileLinkSignature(tokens, deviceId, expires));
}
