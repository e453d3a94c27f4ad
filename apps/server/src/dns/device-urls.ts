import type { Config } from '../config.ts';

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
