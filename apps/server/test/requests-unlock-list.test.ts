import { dashboard } from '@keyward/contract/dashboard';
import {
  FIRST_PAGE_DECIDED,
  FIRST_PAGE_PENDING,
  OLDER_PAGE_SIZE,
} from '@keyward/domain/unlock-request-list';
import { describe, expect, test } from 'vitest';
import { toDbTime } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import { childWithMac } from './activity-helpers.ts';
import { serverWithParents } from './fixtures.ts';

// Issue 19, finding 9: the unlock-request list is read a page at a time. GetUnlockRequests and
// GetUserUnlockRequests (the reference dashboard's calls, unchanged on the wire) answer the first
// page: pending requests, then the newest decided ones; GetUnlockRequestsPage pages through the
// rest with a cursor. The fake clock stands at 2025-01-15T12:00:00Z.

const { server, alice, bob } = await serverWithParents();

type Status = 'pending' | 'accepted' | 'rejected';

/** `count` requests of one Mac, a minute apart going back from `newest` minutes ago. */
async function addRequests(
  computerUserId: string,
  status: Status,
  count: number,
  newest = 0,
): Promise<string[]> {
  const ids: string[] = [];
  const rows = Array.from({ length: count }, (_, i) => {
    const id = newToken();
    ids.push(id);
    const at = toDbTime(new Date(server.clock.now().getTime() - (newest + i) * 60_000));
    return {
      id,
      computer_user_id: computerUserId,
      status,
      app_bundle_id: 'com.apple.Safari',
      url: `https://example.com/page/${i}`,
      hostname: 'example.com',
      ip_address: null,
      request_comment: `request ${i} for my homework`,
      response_comment: null,
      created_at: at,
      updated_at: at,
    };
  });
  for (let start = 0; start < rows.length; start += 200) {
    await server.db
      .insertInto('unlock_requests')
      .values(rows.slice(start, start + 200))
      .execute();
  }
  return ids;
}

const call = (op: string, input: unknown, token = alice.token) => server.call(op, input, { token });

/** Every page from the first, following nextBefore. */
async function allPages(input: { childId?: string }, token = alice.token) {
  const pages = [];
  let before: string | undefined;
  do {
    const page = await call(
      'GetUnlockRequestsPage',
      { ...input, ...(before ? { before } : {}) },
      token,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(dashboard.GetUnlockRequestsPage.output.safeParse(page.body).error).toBeUndefined();
    pages.push(page.body.requests as { id: string; status: Status }[]);
    before = page.body.nextBefore;
  } while (before !== undefined && pages.length < 100);
  return pages;
}

describe('the first page', () => {
  test('pending requests, then the newest decided ones; the reference dashboard still decodes it', async () => {
    const carol = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, carol.adminId, 'Sam');
    const pending = await addRequests(mac.computerUserId, 'pending', 3, 30);
    const accepted = await addRequests(mac.computerUserId, 'accepted', 60, 0);
    const rejected = await addRequests(mac.computerUserId, 'rejected', 60, 60);

    // the reference dashboard's call: no body, an array of UnlockRequest
    const response = await server.app.inject({
      method: 'POST',
      url: '/pairql/dashboard/GetUnlockRequests',
      headers: { 'x-admintoken': carol.token },
    });
    expect(response.statusCode).toBe(200);
    const first = response.json();
    expect(dashboard.GetUnlockRequests.output.safeParse(first).error).toBeUndefined();
    expect(first.map((request: { id: string }) => request.id)).toEqual([
      ...pending,
      ...accepted.slice(0, FIRST_PAGE_DECIDED),
    ]);
    expect(first[0]).toMatchObject({ userId: mac.childId, userName: 'Sam', status: 'pending' });

    const page = await call('GetUnlockRequestsPage', {}, carol.token);
    expect(page.body.requests).toEqual(first);
    expect(page.body.nextBefore).toEqual(expect.any(String));

    // the rest, page by page: every request once, in the list's order
    const pages = await allPages({}, carol.token);
    expect(pages.map((p) => p.length)).toEqual([3 + FIRST_PAGE_DECIDED, OLDER_PAGE_SIZE, 20]);
    expect(pages.flat().map((request) => request.id)).toEqual([
      ...pending,
      ...accepted,
      ...rejected,
    ]);
  });

  test("one child's list: GetUserUnlockRequests is its first page; another child's stay out", async () => {
    const carol = await server.signUpVerifiedParent();
    const sam = await childWithMac(server, carol.adminId, 'Sam');
    const kim = await childWithMac(server, carol.adminId, 'Kim');
    const samPending = await addRequests(sam.computerUserId, 'pending', 2);
    const samDecided = await addRequests(sam.computerUserId, 'rejected', 70, 10);
    await addRequests(kim.computerUserId, 'pending', 5);

    const first = await call('GetUserUnlockRequests', sam.childId, carol.token);
    expect(first.status).toBe(200);
    expect(first.body.map((request: { id: string }) => request.id)).toEqual([
      ...samPending,
      ...samDecided.slice(0, FIRST_PAGE_DECIDED),
    ]);
    const pages = await allPages({ childId: sam.childId }, carol.token);
    expect(pages.flat().map((request) => request.id)).toEqual([...samPending, ...samDecided]);

    const all = await allPages({}, carol.token);
    expect(all.flat()).toHaveLength(2 + 70 + 5);
  });

  test('past the ceiling of pending requests, the older ones follow on the next pages', async () => {
    const carol = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, carol.adminId);
    const pending = await addRequests(mac.computerUserId, 'pending', FIRST_PAGE_PENDING + 70);
    const decided = await addRequests(mac.computerUserId, 'accepted', 10, FIRST_PAGE_PENDING + 70);

    const first = await call('GetUnlockRequests', undefined, carol.token);
    expect(first.body).toHaveLength(FIRST_PAGE_PENDING);
    const pages = await allPages({}, carol.token);
    expect(pages.map((p) => p.length)).toEqual([FIRST_PAGE_PENDING, OLDER_PAGE_SIZE, 30]);
    expect(pages.flat().map((request) => request.id)).toEqual([...pending, ...decided]);
  });

  test('requests of the same second are each listed once', async () => {
    const carol = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, carol.adminId);
    const at = toDbTime(server.clock.now());
    const ids = Array.from({ length: 120 }, () => newToken());
    await server.db
      .insertInto('unlock_requests')
      .values(
        ids.map((id) => ({
          id,
          computer_user_id: mac.computerUserId,
          status: 'rejected' as const,
          app_bundle_id: 'com.apple.Safari',
          url: null,
          hostname: 'example.com',
          ip_address: null,
          request_comment: null,
          response_comment: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const pages = await allPages({}, carol.token);
    expect(pages.map((p) => p.length)).toEqual([FIRST_PAGE_DECIDED, OLDER_PAGE_SIZE, 20]);
    expect(pages.flat().map((request) => request.id)).toEqual([...ids].sort().reverse());
  });
});

describe('a soak’s worth of requests', () => {
  test('3,700 requests: the polled answer stays small', async () => {
    const carol = await server.signUpVerifiedParent();
    const mac = await childWithMac(server, carol.adminId);
    await addRequests(mac.computerUserId, 'pending', 20);
    await addRequests(mac.computerUserId, 'accepted', 1840, 20);
    await addRequests(mac.computerUserId, 'rejected', 1840, 1860);

    const first = await call('GetUnlockRequests', undefined, carol.token);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(20 + FIRST_PAGE_DECIDED);
    expect(JSON.stringify(first.body).length).toBeLessThan(30_000);
    const widgets = await call('DashboardWidgets', undefined, carol.token);
    expect(widgets.body.unlockRequests).toHaveLength(20);
  });
});

describe('refusals', () => {
  test('a cursor the server did not make is a 400 with words for the parent', async () => {
    for (const before of ['yesterday', `p~2025-01-15T12:00:00.000Z~${newToken()}' OR 1=1`]) {
      const result = await call('GetUnlockRequestsPage', { before });
      expect(result.status).toBe(400);
      expect(result.body).toMatchObject({
        id: '7b2e4d19',
        type: 'badRequest',
        userMessage: expect.stringContaining('Reload the page'),
      });
    }
  });

  test("another parent's child is refused exactly like a missing one; their requests never show", async () => {
    const mac = await childWithMac(server, alice.adminId);
    const [request] = await addRequests(mac.computerUserId, 'accepted', 1);
    const foreign = await call('GetUnlockRequestsPage', { childId: mac.childId }, bob.token);
    const missing = await call('GetUnlockRequestsPage', { childId: newToken() }, bob.token);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ type: 'notFound', entityName: 'Child' });
    expect(missing.body).toMatchObject({ type: 'notFound', entityName: 'Child' });

    // a cursor pointing into Alice's list reads only Bob's (none)
    const before = `d~2025-01-15T12:00:01.000Z~${request}`;
    const page = await call('GetUnlockRequestsPage', { before }, bob.token);
    expect(page.body).toEqual({ requests: [] });
    expect((await call('GetUnlockRequests', undefined, bob.token)).body).toEqual([]);
  });
});
