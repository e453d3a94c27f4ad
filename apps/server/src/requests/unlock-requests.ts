import type { UnlockRequest } from '@keyward/contract/shared';
import type { Db } from '../db/database.ts';

// UnlockRequest as the dashboard reads it (server-behaviour §3.5): domain = hostname; appName,
// appSlug and appCategories come from the app catalogue by bundle id. appCategories holds the
// catalogue category's slug, with `browser` for a web browser (the dashboard's browser test).

const BROWSER_CATEGORY = 'browser';

export interface UnlockRequestFilter {
  /** one child's requests (GetUserUnlockRequests) */
  childId?: string;
  /** one request (GetUnlockRequest) */
  id?: string;
}

/** The parent's unlock requests, pending first, then newest first. */
export async function loadUnlockRequests(
  db: Db,
  parentId: string,
  filter: UnlockRequestFilter = {},
): Promise<UnlockRequest[]> {
  let query = db
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
    ])
    .where('c.parent_id', '=', parentId);
  if (filter.childId !== undefined) query = query.where('c.id', '=', filter.childId);
  if (filter.id !== undefined) query = query.where('ur.id', '=', filter.id);
  const rows = await query.orderBy('ur.created_at', 'desc').orderBy('ur.id').execute();

  const seen = new Set<string>();
  const requests: UnlockRequest[] = [];
  for (const row of rows) {
    // a bundle id listed twice in the catalogue would repeat the row
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    const isBrowser = row.browser_id !== null || row.category_slug === 'browsers';
    const categories = new Set<string>();
    if (isBrowser) categories.add(BROWSER_CATEGORY);
    else if (row.category_slug) categories.add(row.category_slug);
    requests.push({
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
    });
  }
  const pendingFirst = (request: UnlockRequest) => (request.status === 'pending' ? 0 : 1);
  return requests.sort((a, b) => pendingFirst(a) - pendingFirst(b));
}
