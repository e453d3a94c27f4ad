import type { UnlockRequest } from '@keyward/contract/shared';
import {
  FIRST_PAGE_DECIDED,
  FIRST_PAGE_PENDING,
  OLDER_PAGE_SIZE,
  type UnlockRequestCursor,
  unlockRequestCursor,
} from '@keyward/domain/unlock-request-list';
import type { Db } from '../db/database.ts';
import { newestPerChild } from '@keyward/domain/request-flood';

// UnlockRequest as the dashboard reads it (server-behaviour §3.5): domain = hostname; appName,
// appSlug and appCategories come from the app catalogue by bundle id. appCategories holds the
// catalogue category's slug, with `browser` for a web browser (the dashboard's browser test).

const BROWSER_CATEGORY = 'browser';

/** The parent's unlock requests (of one child, when given): the rows a list is ordered by. */
function ownRequests(db: Db, parentId: string, childId: string | undefined) {
  return db
    .selectFrom('unlock_requests as ur')
    .innerJoin('computer_users as cu', 'cu.id', 'ur.computer_user_id')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .where('c.parent_id', '=', parentId)
    .$if(childId !== undefined, (qb) => qb.where('c.id', '=', childId!));
}

/**
 * Requests with what the wire shows of them (bundle ids and browser matchers are unique in the
 * catalogue, so each request is one row).
 */
function withDetails(db: Db) {
  return db
    .selectFrom('unlock_requests as ur')
    .innerJoin('computer_users as cu', 'cu.id', 'ur.computer_user_id')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .leftJoin('app_bundle_ids as ab', 'ab.bundle_id', 'ur.app_bundle_id')
    .leftJoin('identified_apps as a', 'a.id', 'ab.identified_app_id')
    .leftJoin('app_categories as ac', 'ac.id', 'a.category_id')
    .leftJoin('browsers as b', 'b.match', 'ur.app_bundle_id')
    .select([
      'ur.id',
      'ur.status',
      'ur.app_bundle_id',
      'ur.url',
      'ur.hostname',
      'ur.ip_address',
      'ur.request_comment',
      'ur.created_at',
      'c.id as child_id',
      'c.name as child_name',
      'a.name as app_name',
      'a.slug as app_slug',
      'ac.slug as category_slug',
      'b.id as browser_id',
    ]);
}

type RequestRow = Awaited<ReturnType<ReturnType<typeof withDetails>['execute']>>[number];

function toUnlockRequest(row: RequestRow): UnlockRequest {
  const isBrowser = row.browser_id !== null || row.category_slug === 'browsers';
  const categories = new Set<string>();
  if (isBrowser) categories.add(BROWSER_CATEGORY);
  else if (row.category_slug) categories.add(row.category_slug);
  return {
    id: row.id,
    userId: row.child_id,
    userName: row.child_name,
    status: row.status,
    ...(row.url !== null ? { url: row.url } : {}),
    ...(row.hostname !== null ? { domain: row.hostname } : {}),
    ...(row.ip_address !== null ? { ipAddress: row.ip_address } : {}),
    ...(row.request_comment !== null ? { requestComment: row.request_comment } : {}),
    ...(row.app_name ? { appName: row.app_name } : {}),
    ...(row.app_slug ? { appSlug: row.app_slug } : {}),
    appBundleId: row.app_bundle_id,
    appCategories: [...categories],
    createdAt: row.created_at,
  };
}

export interface UnlockRequestFilter {
  /** one request (GetUnlockRequest) */
  id?: string;
}

/**
 * The parent's unlock requests matching the filter, newest first. Lists read a page at a time
 * instead (loadUnlockRequestPage).
 */
export async function loadUnlockRequests(
  db: Db,
  parentId: string,
  filter: UnlockRequestFilter = {},
): Promise<UnlockRequest[]> {
  const rows = await withDetails(db)
    .where('c.parent_id', '=', parentId)
    .$if(filter.id !== undefined, (qb) => qb.where('ur.id', '=', filter.id!))
    .orderBy('ur.created_at', 'desc')
    .orderBy('ur.id', 'desc')
    .execute();
  return rows.map(toUnlockRequest);
}

/**
 * Issue 31: each child's newest pending unlock requests, at most `perChild` of a child, newest
 * first: what a polled read (DashboardWidgets) lists. Read a page per device from the index on
 * (computer_user_id, status, created_at, id), never every pending row.
 */
export async function loadNewestPendingUnlockRequests(
  db: Db,
  parentId: string,
  perChild: number,
): Promise<UnlockRequest[]> {
  const devices = await db
    .selectFrom('computer_users as cu')
    .innerJoin('children as c', 'c.id', 'cu.child_id')
    .select(['cu.id', 'c.id as child_id'])
    .where('c.parent_id', '=', parentId)
    .execute();
  const pages = await Promise.all(
    devices.map((device) =>
      db
        .selectFrom('unlock_requests')
        .select(['id', 'created_at'])
        .where('computer_user_id', '=', device.id)
        .where('status', '=', 'pending')
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(perChild)
        .execute()
        .then((rows) => rows.map((row) => ({ ...row, childId: device.child_id }))),
    ),
  );
  const { shown } = newestPerChild(
    pages.flat().map((row) => ({ id: row.id, childId: row.childId, createdAt: row.created_at })),
    new Map(),
    perChild,
  );
  if (shown.length === 0) return [];
  const details = await withDetails(db)
    .where(
      'ur.id',
      'in',
      shown.map((row) => row.id),
    )
    .execute();
  const byId = new Map(details.map((row) => [row.id, toUnlockRequest(row)]));
  return shown.flatMap((row) => byId.get(row.id) ?? []);
}

// Issue 19 (finding 9): lists are read a page at a time (sizes and cursors in
// packages/domain/src/unlock-request-list.ts): pending requests, then decided ones, each newest
// first (ties by id), continued from a cursor (keyset on created_at and id).

export interface UnlockRequestPage {
  requests: UnlockRequest[];
  /** the cursor of the next (older) page; absent on the last page */
  nextBefore?: string;
}

/**
 * One page of the parent's (or one child's) unlock requests. No cursor: the first page, every
 * pending request up to FIRST_PAGE_PENDING and then FIRST_PAGE_DECIDED decided ones; a cursor: the
 * next OLDER_PAGE_SIZE requests after it. The child, when given, must already be owned.
 */
export async function loadUnlockRequestPage(
  db: Db,
  parentId: string,
  options: { childId?: string; after?: UnlockRequestCursor },
): Promise<UnlockRequestPage> {
  const { after } = options;
  const segment = async (isPending: boolean, limit: number) => {
    const from = after !== undefined && after.isPending === isPending ? after : undefined;
    const rows = await ownRequests(db, parentId, options.childId)
      .select(['ur.id', 'ur.status', 'ur.created_at'])
      .where('ur.status', isPending ? '=' : '!=', 'pending')
      .$if(from !== undefined, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb('ur.created_at', '<', from!.createdAt),
            eb.and([eb('ur.created_at', '=', from!.createdAt), eb('ur.id', '<', from!.id)]),
          ]),
        ),
      )
      .orderBy('ur.created_at', 'desc')
      .orderBy('ur.id', 'desc')
      .limit(limit + 1)
      .execute();
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  };

  const page: { id: string; status: UnlockRequest['status']; created_at: string }[] = [];
  let hasMore = false;
  if (after === undefined || after.isPending) {
    const pending = await segment(true, after === undefined ? FIRST_PAGE_PENDING : OLDER_PAGE_SIZE);
    page.push(...pending.rows);
    hasMore = pending.hasMore;
  }
  if (!hasMore) {
    const room = after === undefined ? FIRST_PAGE_DECIDED : OLDER_PAGE_SIZE - page.length;
    const decided = await segment(false, room);
    page.push(...decided.rows);
    hasMore = decided.hasMore;
  }

  // the page's rows, found above within the family, with their details, in the page's order (by id
  // alone: a family filter here would make the database walk the family's requests again)
  const details =
    page.length === 0
      ? []
      : await withDetails(db)
          .where(
            'ur.id',
            'in',
            page.map((row) => row.id),
          )
          .execute();
  const byId = new Map(details.map((row) => [row.id, toUnlockRequest(row)]));
  const requests = page.flatMap((row) => byId.get(row.id) ?? []);
  const last = page.at(-1);
  if (!hasMore || !last) return { requests };
  return {
    requests,
    nextBefore: unlockRequestCursor({
      id: last.id,
      status: last.status,
      createdAt: last.created_at,
    }),
  };
}
