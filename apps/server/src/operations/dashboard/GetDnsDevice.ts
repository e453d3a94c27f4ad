import type { DnsDeviceKind } from '@keyward/contract/dashboard';
import { compileDnsPolicy } from '@keyward/domain/dns-policy';
import { browserKeychains } from '../../devices/browsers.ts';
import { readNames } from '../../dns/blocked-names.ts';
import { timeZoneOffsetMinutes } from '../../dns/device-policies.ts';
import { dohUrlOf, dotHostnameOf, parentAppleProfileUrlOf } from '../../dns/device-urls.ts';
import { queriesSince } from '../../dns/query-hours.ts';
import { DAY } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { ownedDnsDevice } from '../ownership.ts';

const KINDS: readonly DnsDeviceKind[] = ['android', 'ios', 'macos', 'windows', 'other'];

/** Midnight of `now`'s day in a time zone (offset as Date#getTimezoneOffset), as an instant. */
export function localMidnight(now: Date, offsetMinutes: number): Date {
  const offsetMs = offsetMinutes * 60_000;
  return new Date(Math.floor((now.getTime() - offsetMs) / DAY) * DAY + offsetMs);
}

// Issue 33: a Keyward DNS device's page: its addresses, when it last asked, today's queries, its
// most asked allowed and blocked names and the recently blocked ones, and how many of the child's
// keys DNS cannot enforce. Every read is bounded (a few indexed rows per device).
export default dashboardResolver('GetDnsDevice', async (computerId, ctx) => {
  const device = await ownedDnsDevice(ctx.db, ctx.parentId, computerId);
  const now = ctx.clock.now();
  const hasRemovalPassword = device.dns_removal_password_encrypted !== null;
  const parent = await ctx.db
    .selectFrom('parents')
    .select('time_zone')
    .where('id', '=', ctx.parentId)
    .executeTakeFirst();
  const midnight = localMidnight(now, timeZoneOffsetMinutes(parent?.time_zone ?? null, now));
  const [presence, today, topAllowed, topBlocked, recentlyBlocked, keychains] = await Promise.all([
    ctx.db
      .selectFrom('device_presence')
      .select('last_seen_at')
      .where('computer_user_id', '=', device.id)
      .executeTakeFirst(),
    queriesSince(ctx.db, device.id, midnight),
    readNames(ctx.db, 'dns_allowed_names', device.id, now, 'top', 10),
    readNames(ctx.db, 'dns_blocked_names', device.id, now, 'top', 10),
    readNames(ctx.db, 'dns_blocked_names', device.id, now, 'recent', 20),
    browserKeychains(ctx.db, device.child_id, now),
  ]);
  const kind = KINDS.find((k) => k === device.platform) ?? 'other';
  const wire = (names: typeof topAllowed) =>
    names.map((n) => ({ name: n.name, count: n.count, lastAt: n.lastAt.toISOString() }));
  return {
    id: device.id,
    computerId: device.computer_id,
    childId: device.child_id,
    childName: device.child_name,
    name: device.custom_name ?? 'Keyward DNS device',
    kind,
    dohUrl: dohUrlOf(ctx.config, device.id),
    dotHostname: dotHostnameOf(ctx.config, device.id),
    ...(kind === 'ios' || kind === 'macos'
      ? {
          appleProfileUrl: parentAppleProfileUrlOf(
            ctx.config,
            ctx.services.tokens,
            device.id,
            hasRemovalPassword,
            now,
          ),
        }
      : {}),
    hasRemovalPassword,
    ...(presence ? { lastQueryAt: new Date(presence.last_seen_at).toISOString() } : {}),
    queriesToday: today.queries,
    blockedToday: today.blocked,
    topAllowed: wire(topAllowed),
    topBlocked: wire(topBlocked),
    recentlyBlocked: wire(recentlyBlocked),
    keysNotForDns: compileDnsPolicy({ keychains }).keysNotForDns,
  };
});
