import type { SecurityEvent } from '@keyward/contract/shared';
import { describeModel } from '@keyward/domain/device-models';
import { SECURITY_EVENTS_WINDOW_DAYS, securityEventWording } from '@keyward/domain/security-events';
import { DAY, toDbTime } from '../../db/values.ts';
import { dashboardResolver } from '../../pairql/resolver.ts';
import { type IpLocation, lookUpIpLocation } from '../../services/ip-location.ts';

// server-behaviour §3.9: the parent's events of the last 14 days, newest first. Mac events carry the
// child and computer; dashboard events the client IP and its location from the offline database.
// Unknown event names and events of a vanished computer user are dropped.
export default dashboardResolver('SecurityEventsFeed', async (_input, ctx) => {
  const since = toDbTime(new Date(ctx.clock.now().getTime() - SECURITY_EVENTS_WINDOW_DAYS * DAY));
  const rows = await ctx.db
    .selectFrom('security_events as e')
    .leftJoin('computer_users as cu', 'cu.id', 'e.computer_user_id')
    .leftJoin('children as ch', (join) =>
      join.onRef('ch.id', '=', 'cu.child_id').on('ch.parent_id', '=', ctx.parentId),
    )
    .leftJoin('computers as c', 'c.id', 'cu.computer_id')
    .select([
      'e.id',
      'e.computer_user_id',
      'e.event',
      'e.detail',
      'e.ip_address',
      'e.created_at',
      'ch.id as child_id',
      'ch.name as child_name',
      'c.id as computer_id',
      'c.custom_name',
      'c.model_identifier',
    ])
    .where('e.parent_id', '=', ctx.parentId)
    .where('e.created_at', '>=', since)
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .execute();

  const locations = new Map<string, Promise<IpLocation | undefined>>();
  const locate = (ip: string) => {
    let location = locations.get(ip);
    if (!location) {
      location = lookUpIpLocation(ip);
      locations.set(ip, location);
    }
    return location;
  };

  const events: SecurityEvent[] = [];
  for (const row of rows) {
    const wording = securityEventWording(row.event);
    if (!wording) continue;
    const common = {
      id: row.id,
      event: wording.words,
      explanation: wording.explanation,
      createdAt: new Date(row.created_at).toISOString(),
      ...(row.detail ? { detail: row.detail } : {}),
    };
    if (row.computer_user_id !== null) {
      if (row.child_id === null || row.computer_id === null) continue;
      events.push({
        case: 'child',
        ...common,
        childId: row.child_id,
        childName: row.child_name ?? '',
        deviceId: row.computer_id,
        deviceName: row.custom_name ?? describeModel(row.model_identifier ?? '').title,
      });
      continue;
    }
    const location = row.ip_address ? await locate(row.ip_address) : undefined;
    events.push({
      case: 'admin',
      ...common,
      ...(row.ip_address ? { ipAddress: row.ip_address } : {}),
      ...(location ? { location } : {}),
    });
  }
  return events;
});
