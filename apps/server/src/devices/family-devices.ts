import type { DeviceKind, FamilyDevice, InboxItem, RequestStatus } from '@keyward/contract/shared';
import {
  newestPerChild,
  PENDING_COUNTED_PER_DEVICE,
  PENDING_SHOWN_PER_CHILD,
} from '@keyward/domain/request-flood';
import { describeModel } from '@keyward/domain/device-models';
import { extraMonitoringOptions } from '@keyward/domain/extra-monitoring';
import { SUSPENSION_REQUEST_EXPIRY_MS } from '@keyward/domain/suspension-grant';
import type { Db } from '../db/database.ts';
import type { ComputerKind } from '../db/schema.ts';
import { fromDbBool, fromDbInt, toDbJson, toDbTime } from '../db/values.ts';
import { countPendingUnlocks } from './pending-counts.ts';
import { unlockRequestTarget } from './resolved-requests.ts';
import { computerUserStatuses } from './status.ts';

// Issue 20: a child's devices of every kind behind one interface. Each kind (a Mac's computer user,
// an iPhone or iPad, and later a browser extension) is one `DeviceKindSource`: how its devices are
// listed with their live status, which requests of the child wait on it, and how one of its
// suspension requests is read and decided. The dashboard reads (GetFamilyDevices, GetInbox) and the
// suspension decision (GetSuspendFilterRequest, DecideFilterSuspensionRequest) go through here, so
// a new kind of device is one more source, not another copy of each resolver.
//
// Every read starts from the family (`children.parent_id`, indexed) and walks indexed foreign keys
// (computer_users.child_id, ios_devices.child_id, *_requests.{computer_user_id,device_id}), so the
// inbox, polled by every open dashboard, stays cheap.

export interface DeviceScope {
  parentId: string;
  now: Date;
  /** only this child's devices and requests (the caller checked the child is the parent's) */
  childId?: string;
}

/** A suspension request as every kind of device has it, with the child it belongs to. */
export interface OwnedSuspensionRequest {
  kind: DeviceKind;
  id: string;
  /** the computer-user id of a Mac, the device id of an iOS device */
  deviceId: string;
  childId: string;
  childName: string;
  status: RequestStatus;
  /** granted once accepted, else what was asked */
  duration: number;
  /** what the child asked for (issue 32: a decision no longer overwrites it) */
  requestedDuration: number;
  requestComment: string | null;
  responseComment: string | null;
  createdAt: string;
  /** the extra monitoring the parent may add with a grant (none on iOS) */
  extraMonitoringOptions: Record<string, string>;
  /** the extra monitoring granted with it (a Mac's decided request), or null */
  extraMonitoring: string | null;
}

export interface SuspensionDecisionChange {
  status: 'accepted' | 'rejected';
  /** the granted duration (accepted only) */
  duration?: number;
  extraMonitoring: string | null;
  responseComment: string | null;
  updatedAt: string;
}

export interface DeviceKindSource {
  kind: DeviceKind;
  devices(db: Db, scope: DeviceScope): Promise<Omit<FamilyDevice, 'pendingRequests'>[]>;
  /**
   * Pending requests of the scope under this kind's devices (suspensions only while decidable):
   * each device's newest `perDevice` (default PENDING_SHOWN_PER_CHILD; 0: counts only) and how
   * many wait on each device in all (issue 31: never every row a child sent).
   */
  pendingRequests(db: Db, scope: DeviceScope, perDevice?: number): Promise<PendingOfKind>;
  /** one of the parent's suspension requests made on a device of this kind, or undefined */
  suspensionRequest(
    db: Db,
    parentId: string,
    id: string,
  ): Promise<OwnedSuspensionRequest | undefined>;
  /**
   * Records a decision on a pending request; false when it was no longer pending (another tab
   * decided first). Runs inside the caller's transaction.
   */
  recordSuspensionDecision(db: Db, id: string, change: SuspensionDecisionChange): Promise<boolean>;
  /** the child's side: this device's pending suspension requests (inside the caller's transaction) */
  pendingSuspensions(db: Db, deviceId: string): Promise<{ id: string; createdAt: string }[]>;
  /** stores a new pending suspension request of this device (inside the caller's transaction) */
  insertSuspensionRequest(db: Db, request: NewSuspensionRequest): Promise<void>;
}

/** What waits on a kind's devices: a page of items and every device's count. */
export interface PendingOfKind {
  items: InboxItem[];
  counts: {
    kind: DeviceKind;
    deviceId: string;
    childId: string;
    childName: string;
    count: number;
    /** counted up to PENDING_COUNTED_PER_DEVICE: there may be more */
    isAtLeast?: true;
  }[];
}

export interface NewSuspensionRequest {
  id: string;
  /** the computer-user id of a Mac, the device id of an iOS device */
  deviceId: string;
  /** seconds */
  duration: number;
  requestComment: string | null;
  at: string;
}

/** This kind's pending suspension requests of one device. */
function pendingSuspensionsIn(
  table: 'mac_suspend_filter_requests' | 'ios_suspend_filter_requests',
  deviceColumn: 'computer_user_id' | 'device_id',
) {
  return (db: Db, deviceId: string) =>
    db
      .selectFrom(table)
      .select(['id', 'created_at as createdAt'])
      .where(deviceColumn, '=', deviceId)
      .where('status', '=', 'pending')
      .execute();
}

const decidableSince = (now: Date) =>
  toDbTime(new Date(now.getTime() - SUSPENSION_REQUEST_EXPIRY_MS));

function optionalComment(comment: string | null): { requestComment?: string } {
  return comment === null ? {} : { requestComment: comment };
}

// ---- Macs: one device per computer user (a child on a computer) ----
// A browser with Keyward for Chrome is stored as a computer of kind `browser` with one computer
// user (issue 22), and a Keyward DNS device as one of kind `dns` (issue 33), so this source lists
// them and their requests too; the parent sees each as what it is.

/** What the parent sees a computer as. */
function computerDeviceKind(kind: ComputerKind): 'mac' | 'browser' | 'dns' {
  return kind === 'browser' || kind === 'dns' ? kind : 'mac';
}

const macSource: DeviceKindSource = {
  kind: 'mac',

  async devices(db, { parentId, now, childId }) {
    let query = db
      .selectFrom('computer_users as cu')
      .innerJoin('children as ch', 'ch.id', 'cu.child_id')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .select([
        'cu.id',
        'cu.computer_id',
        'cu.app_version',
        'ch.id as child_id',
        'ch.name as child_name',
        'c.model_identifier',
        'c.custom_name',
        'c.kind as computer_kind',
      ])
      .where('ch.parent_id', '=', parentId);
    if (childId !== undefined) query = query.where('ch.id', '=', childId);
    const rows = await query.orderBy('ch.name').orderBy('cu.created_at').orderBy('cu.id').execute();
    const statuses = await computerUserStatuses(
      db,
      rows.filter((row) => row.computer_kind !== 'dns').map((row) => row.id),
      now,
    );
    // issue 33: a DNS device reports no filter state; its status is when it last asked a name
    const dnsIds = rows.filter((row) => row.computer_kind === 'dns').map((row) => row.id);
    const lastQueries = new Map(
      dnsIds.length === 0
        ? []
        : (
            await db
              .selectFrom('device_presence')
              .select(['computer_user_id', 'last_seen_at'])
              .where('computer_user_id', 'in', dnsIds)
              .execute()
          ).map((row) => [row.computer_user_id, new Date(row.last_seen_at).toISOString()]),
    );
    return rows.map((row) => {
      const model = describeModel(row.model_identifier);
      if (row.computer_kind === 'dns') {
        const lastSeenAt = lastQueries.get(row.id);
        return {
          kind: 'dns' as const,
          id: row.id,
          childId: row.child_id,
          childName: row.child_name,
          name: row.custom_name ?? model.title,
          model: model.title,
          path: `/computers/${row.computer_id}`,
          computerId: row.computer_id,
          ...(lastSeenAt ? { lastSeenAt } : {}),
          modelFamily: model.family,
        };
      }
      return {
        kind: computerDeviceKind(row.computer_kind),
        id: row.id,
        childId: row.child_id,
        childName: row.child_name,
        name: row.custom_name ?? model.title,
        model: model.title,
        path: `/computers/${row.computer_id}`,
        computerId: row.computer_id,
        status: statuses.get(row.id) ?? { case: 'offline' as const },
        appVersion: row.app_version,
        modelFamily: model.family,
      };
    });
  },

  async pendingRequests(db, { parentId, now, childId }, perDevice = PENDING_SHOWN_PER_CHILD) {
    let query = db
      .selectFrom('computer_users as cu')
      .innerJoin('children as ch', 'ch.id', 'cu.child_id')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .select([
        'cu.id as device_id',
        'ch.id as child_id',
        'ch.name as child_name',
        'ch.keylogging_enabled',
        'ch.screenshots_enabled',
        'ch.screenshots_frequency',
        'c.model_identifier',
        'c.custom_name',
        'c.kind as computer_kind',
      ])
      .where('ch.parent_id', '=', parentId);
    if (childId !== undefined) query = query.where('ch.id', '=', childId);
    const devices = await query.execute();
    if (devices.length === 0) return { items: [], counts: [] };
    const ids = devices.map((device) => device.device_id);

    // Issue 31: how many wait on each device (from the index alone), and each device's newest
    // page, never every row a child sent
    const [unlockCounts, suspensionCounts] = await Promise.all([
      Promise.all(
        ids.map(async (id) => ({
          computer_user_id: id,
          n: await countPendingUnlocks(db, id, PENDING_COUNTED_PER_DEVICE),
        })),
      ),
      db
        .selectFrom('mac_suspend_filter_requests')
        .select(['computer_user_id', (eb) => eb.fn.countAll().as('n')])
        .where('computer_user_id', 'in', ids)
        .where('status', '=', 'pending')
        .where('created_at', '>=', decidableSince(now))
        .groupBy('computer_user_id')
        .execute(),
    ]);
    const capped = new Set(
      unlockCounts
        .filter((row) => row.n >= PENDING_COUNTED_PER_DEVICE)
        .map((row) => row.computer_user_id),
    );
    const countOf = new Map<string, number>();
    for (const row of [...unlockCounts, ...suspensionCounts]) {
      countOf.set(
        row.computer_user_id,
        (countOf.get(row.computer_user_id) ?? 0) + fromDbInt(row.n),
      );
    }
    const counts = devices.flatMap((device) => {
      const count = countOf.get(device.device_id) ?? 0;
      return count === 0
        ? []
        : [
            {
              kind: computerDeviceKind(device.computer_kind),
              deviceId: device.device_id,
              childId: device.child_id,
              childName: device.child_name,
              count,
              ...(capped.has(device.device_id) ? { isAtLeast: true as const } : {}),
            },
          ];
    });
    if (perDevice === 0) return { items: [], counts };

    const waiting = devices.filter((device) => countOf.has(device.device_id));
    const pages = await Promise.all(
      waiting.map(async (device) => {
        const [suspensions, unlocks] = await Promise.all([
          db
            .selectFrom('mac_suspend_filter_requests as r')
            .select(['r.id', 'r.duration', 'r.request_comment', 'r.created_at'])
            .where('r.computer_user_id', '=', device.device_id)
            .where('r.status', '=', 'pending')
            .where('r.created_at', '>=', decidableSince(now))
            .orderBy('r.created_at', 'desc')
            .orderBy('r.id', 'desc')
            .limit(perDevice)
            .execute(),
          db
            .selectFrom('unlock_requests as r')
            .leftJoin('app_bundle_ids as ab', 'ab.bundle_id', 'r.app_bundle_id')
            .leftJoin('identified_apps as a', 'a.id', 'ab.identified_app_id')
            .select([
              'r.id',
              'r.url',
              'r.hostname',
              'r.ip_address',
              'r.app_bundle_id',
              'r.request_comment',
              'r.created_at',
              'a.name as app_name',
            ])
            .where('r.computer_user_id', '=', device.device_id)
            .where('r.status', '=', 'pending')
            .orderBy('r.created_at', 'desc')
            .orderBy('r.id', 'desc')
            // a bundle id listed twice in the catalogue would repeat a row
            .limit(perDevice * 2)
            .execute(),
        ]);
        return { device, suspensions, unlocks };
      }),
    );

    const items: InboxItem[] = [];
    for (const { device, suspensions, unlocks } of pages) {
      const base = {
        childId: device.child_id,
        childName: device.child_name,
        device: {
          kind: computerDeviceKind(device.computer_kind),
          id: device.device_id,
          name: device.custom_name ?? describeModel(device.model_identifier).title,
        },
      };
      for (const row of suspensions) {
        items.push({
          case: 'suspension',
          id: row.id,
          ...base,
          createdAt: row.created_at,
          ...optionalComment(row.request_comment),
          requestedDurationInSeconds: row.duration,
          extraMonitoringOptions: extraMonitoringOptions({
            keyloggingEnabled: fromDbBool(device.keylogging_enabled),
            screenshotsEnabled: fromDbBool(device.screenshots_enabled),
            screenshotsFrequency: device.screenshots_frequency,
          }),
        });
      }
      const seen = new Set<string>();
      for (const row of unlocks) {
        if (seen.has(row.id) || seen.size >= perDevice) continue;
        seen.add(row.id);
        items.push({
          case: 'unlock',
          id: row.id,
          ...base,
          createdAt: row.created_at,
          ...optionalComment(row.request_comment),
          target: unlockRequestTarget(row),
          ...(row.app_name ? { appName: row.app_name } : {}),
        });
      }
    }
    return { items, counts };
  },

  async suspensionRequest(db, parentId, id) {
    const row = await db
      .selectFrom('mac_suspend_filter_requests as r')
      .innerJoin('computer_users as cu', 'cu.id', 'r.computer_user_id')
      .innerJoin('children as c', 'c.id', 'cu.child_id')
      .selectAll('r')
      .select([
        'c.id as child_id',
        'c.name as child_name',
        'c.keylogging_enabled',
        'c.screenshots_enabled',
        'c.screenshots_frequency',
      ])
      .where('r.id', '=', id.toLowerCase())
      .where('c.parent_id', '=', parentId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      kind: 'mac',
      id: row.id,
      deviceId: row.computer_user_id,
      childId: row.child_id,
      childName: row.child_name,
      status: row.status,
      duration: row.duration,
      requestedDuration: row.requested_duration ?? row.duration,
      requestComment: row.request_comment,
      responseComment: row.response_comment,
      createdAt: row.created_at,
      extraMonitoringOptions: extraMonitoringOptions({
        keyloggingEnabled: fromDbBool(row.keylogging_enabled),
        screenshotsEnabled: fromDbBool(row.screenshots_enabled),
        screenshotsFrequency: row.screenshots_frequency,
      }),
      extraMonitoring: row.extra_monitoring,
    };
  },

  async recordSuspensionDecision(db, id, change) {
    const updated = await db
      .updateTable('mac_suspend_filter_requests')
      .set({
        status: change.status,
        ...(change.duration === undefined ? {} : { duration: change.duration }),
        extra_monitoring: change.extraMonitoring,
        response_comment: change.responseComment,
        updated_at: change.updatedAt,
      })
      .where('id', '=', id)
      // two parents' tabs deciding at once: only the first decision counts
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return updated !== undefined;
  },

  pendingSuspensions: pendingSuspensionsIn('mac_suspend_filter_requests', 'computer_user_id'),

  async insertSuspensionRequest(db, request) {
    await db
      .insertInto('mac_suspend_filter_requests')
      .values({
        id: request.id,
        computer_user_id: request.deviceId,
        status: 'pending',
        // the only scope the Mac app asks for in this version
        scope: toDbJson({ type: 'unrestricted' }),
        duration: request.duration,
        requested_duration: request.duration,
        request_comment: request.requestComment,
        response_comment: null,
        extra_monitoring: null,
        created_at: request.at,
        updated_at: request.at,
      })
      .execute();
  },
};

// ---- iPhones and iPads ----

const iosSource: DeviceKindSource = {
  kind: 'ios',

  async devices(db, { parentId, childId }) {
    let query = db
      .selectFrom('ios_devices as d')
      .innerJoin('children as ch', 'ch.id', 'd.child_id')
      .select([
        'd.id',
        'd.device_type',
        'd.ios_version',
        'd.app_version',
        'd.updated_at',
        'ch.id as child_id',
        'ch.name as child_name',
      ])
      .where('ch.parent_id', '=', parentId);
    if (childId !== undefined) query = query.where('ch.id', '=', childId);
    const rows = await query.orderBy('ch.name').orderBy('d.device_type').orderBy('d.id').execute();
    return rows.map((row) => ({
      kind: 'ios' as const,
      id: row.id,
      childId: row.child_id,
      childName: row.child_name,
      name: row.device_type,
      model: row.device_type,
      path: `/ios-devices/${row.id}`,
      lastSeenAt: row.updated_at,
      osVersion: row.ios_version,
      appVersion: row.app_version,
    }));
  },

  async pendingRequests(db, { parentId, now, childId }, perDevice = PENDING_SHOWN_PER_CHILD) {
    // a device has at most one decidable suspension request pending (issue 19), so these are few;
    // still read a page of each device's newest (issue 31)
    let query = db
      .selectFrom('ios_suspend_filter_requests as r')
      .innerJoin('ios_devices as d', 'd.id', 'r.device_id')
      .innerJoin('children as ch', 'ch.id', 'd.child_id')
      .select([
        'r.id',
        'r.duration',
        'r.request_comment',
        'r.created_at',
        'd.id as device_id',
        'd.device_type',
        'ch.id as child_id',
        'ch.name as child_name',
      ])
      .where('ch.parent_id', '=', parentId)
      .where('r.status', '=', 'pending')
      .where('r.created_at', '>=', decidableSince(now));
    if (childId !== undefined) query = query.where('ch.id', '=', childId);
    const rows = await query.orderBy('r.created_at', 'desc').orderBy('r.id', 'desc').execute();
    const countOf = new Map<string, { childId: string; childName: string; count: number }>();
    const shownOf = new Map<string, number>();
    const items: InboxItem[] = [];
    for (const row of rows) {
      const entry = countOf.get(row.device_id) ?? {
        childId: row.child_id,
        childName: row.child_name,
        count: 0,
      };
      entry.count += 1;
      countOf.set(row.device_id, entry);
      const shown = shownOf.get(row.device_id) ?? 0;
      if (shown >= perDevice) continue;
      shownOf.set(row.device_id, shown + 1);
      items.push({
        case: 'suspension' as const,
        id: row.id,
        childId: row.child_id,
        childName: row.child_name,
        device: { kind: 'ios' as const, id: row.device_id, name: row.device_type },
        createdAt: row.created_at,
        ...optionalComment(row.request_comment),
        requestedDurationInSeconds: row.duration,
        extraMonitoringOptions: {},
      });
    }
    const counts = [...countOf].map(([deviceId, entry]) => ({
      kind: 'ios' as const,
      deviceId,
      ...entry,
    }));
    return { items, counts };
  },

  async suspensionRequest(db, parentId, id) {
    const row = await db
      .selectFrom('ios_suspend_filter_requests as r')
      .innerJoin('ios_devices as d', 'd.id', 'r.device_id')
      .innerJoin('children as c', 'c.id', 'd.child_id')
      .selectAll('r')
      .select(['c.id as child_id', 'c.name as child_name'])
      .where('r.id', '=', id.toLowerCase())
      .where('c.parent_id', '=', parentId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      kind: 'ios',
      id: row.id,
      deviceId: row.device_id,
      childId: row.child_id,
      childName: row.child_name,
      status: row.status,
      duration: row.duration,
      requestedDuration: row.requested_duration ?? row.duration,
      requestComment: row.request_comment,
      responseComment: row.response_comment,
      createdAt: row.created_at,
      // the iOS app has no extra monitoring
      extraMonitoringOptions: {},
      extraMonitoring: null,
    };
  },

  async recordSuspensionDecision(db, id, change) {
    const updated = await db
      .updateTable('ios_suspend_filter_requests')
      .set({
        status: change.status,
        ...(change.duration === undefined ? {} : { duration: change.duration }),
        response_comment: change.responseComment,
        updated_at: change.updatedAt,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return updated !== undefined;
  },

  pendingSuspensions: pendingSuspensionsIn('ios_suspend_filter_requests', 'device_id'),

  async insertSuspensionRequest(db, request) {
    await db
      .insertInto('ios_suspend_filter_requests')
      .values({
        id: request.id,
        device_id: request.deviceId,
        status: 'pending',
        duration: request.duration,
        requested_duration: request.duration,
        request_comment: request.requestComment,
        response_comment: null,
        created_at: request.at,
        updated_at: request.at,
      })
      .execute();
  },
};

/** Every kind of device, in the order they are listed. */
export const DEVICE_KINDS: readonly DeviceKindSource[] = [macSource, iosSource];

export function deviceKindSource(kind: DeviceKind): DeviceKindSource {
  // a browser's rows are a computer's (above)
  const stored = kind === 'browser' ? 'mac' : kind;
  const source = DEVICE_KINDS.find((candidate) => candidate.kind === stored);
  if (!source) throw new Error(`no device kind ${kind}`);
  return source;
}

/** Newest first, then by id (the order of every list of requests). */
export const newestFirst = (
  a: { createdAt: string; id: string },
  b: { createdAt: string; id: string },
) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id));

/** What waits for the parent (GetInbox): a page per child, newest first, and the rest counted. */
export interface PendingPage {
  items: InboxItem[];
  /** per child, the pending requests not among `items` (at least, when a count stopped) */
  more: { childId: string; childName: string; count: number; isAtLeast?: true }[];
}

/**
 * The requests waiting for the parent, of every kind of device: each child's newest
 * PENDING_SHOWN_PER_CHILD, newest first, and how many more each child has waiting (issue 31: the
 * read's size and cost stay bounded however many a child sent).
 */
export async function loadPendingRequests(db: Db, scope: DeviceScope): Promise<PendingPage> {
  const perKind = await Promise.all(
    DEVICE_KINDS.map((source) => source.pendingRequests(db, scope, PENDING_SHOWN_PER_CHILD)),
  );
  const totals = new Map<string, number>();
  const names = new Map<string, string>();
  const atLeast = new Set<string>();
  for (const { counts } of perKind) {
    for (const entry of counts) {
      totals.set(entry.childId, (totals.get(entry.childId) ?? 0) + entry.count);
      names.set(entry.childId, entry.childName);
      if (entry.isAtLeast) atLeast.add(entry.childId);
    }
  }
  const { shown, more } = newestPerChild(
    perKind.flatMap((kind) => kind.items),
    totals,
    PENDING_SHOWN_PER_CHILD,
  );
  return {
    items: shown.sort(newestFirst),
    more: [...more].map(([childId, count]) => ({
      childId,
      childName: names.get(childId) ?? '',
      count,
      ...(atLeast.has(childId) ? { isAtLeast: true as const } : {}),
    })),
  };
}

/** The family's devices of every kind (Macs first), each with its number of pending requests. */
export async function loadFamilyDevices(db: Db, scope: DeviceScope): Promise<FamilyDevice[]> {
  const [perKind, pending] = await Promise.all([
    Promise.all(DEVICE_KINDS.map((source) => source.devices(db, scope))),
    // counts only: the devices page lists no request (issue 31)
    Promise.all(DEVICE_KINDS.map((source) => source.pendingRequests(db, scope, 0))),
  ]);
  const pendingOf = new Map<string, number>();
  for (const { counts } of pending) {
    for (const entry of counts) pendingOf.set(`${entry.kind}/${entry.deviceId}`, entry.count);
  }
  return perKind.flat().map((device) => ({
    ...device,
    pendingRequests: pendingOf.get(`${device.kind}/${device.id}`) ?? 0,
  }));
}

/** A suspension request of the parent's children made on any kind of device, or undefined. */
export async function findSuspensionRequest(
  db: Db,
  parentId: string,
  id: string,
): Promise<OwnedSuspensionRequest | undefined> {
  // request ids are random UUIDs of every kind, so at most one kind has it
  for (const source of DEVICE_KINDS) {
    const found = await source.suspensionRequest(db, parentId, id);
    if (found) return found;
  }
  return undefined;
}
