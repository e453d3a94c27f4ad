import { describe, expect, test } from 'vitest';
import { toDbBool } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  childWithMac,
  insertLine,
  insertShot,
  requestSigned,
  TINY_JPEG,
  withoutRequestId,
} from './activity-helpers.ts';
import { addComputerUser, deviceCall, serverWithParents } from './fixtures.ts';

// The parent's review of activity (server-behaviour §3.6, §7.3, §7.4): summaries, feeds, review
// (delete) and flag. Every operation refuses another parent's items exactly like missing ones.
// The fake clock stands at 2025-01-15T12:00:00Z.

const { server, alice, bob } = await serverWithParents();
const DAY_15 = { start: '2025-01-14T23:59:59.999Z', end: '2025-01-15T23:59:59.999Z' };

function call(op: string, input: unknown, token = alice.token) {
  return server.call(op, input, { token });
}

async function rowState(table: 'screenshots' | 'keystroke_lines', id: string) {
  return server.db
    .selectFrom(table)
    .select(['deleted_at', 'flagged'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe('UserActivityFeed', () => {
  test('unreviewed items of the range, coalesced, newest first, with signed image URLs', async () => {
    const mac = await childWithMac(server, alice.adminId, 'Sam');
    const l1 = await insertLine(server, mac.computerUserId, '2025-01-15T09:00:00Z', 'Notes', 'one');
    const l2 = await insertLine(
      server,
      mac.computerUserId,
      '2025-01-15T09:01:00Z',
      'Notes',
      'two',
      {
        filterSuspended: true,
      },
    );
    const s1 = await insertShot(server, mac.computerUserId, '2025-01-15T09:02:00Z', {
      flagged: '2025-01-15T10:00:00.000Z',
    });
    const l3 = await insertLine(
      server,
      mac.computerUserId,
      '2025-01-15T09:03:00Z',
      'Notes',
      'three',
    );
    // reviewed, and outside the range
    await insertLine(server, mac.computerUserId, '2025-01-15T08:00:00Z', 'Mail', 'old', {
      deletedAt: '2025-01-15T10:00:00.000Z',
    });
    await insertShot(server, mac.computerUserId, '2025-01-15T07:00:00Z', {
      deletedAt: '2025-01-15T10:00:00.000Z',
    });
    await insertLine(server, mac.computerUserId, '2025-01-14T23:59:59.999Z', 'Notes', 'at start');
    await insertLine(server, mac.computerUserId, '2025-01-16T00:00:00Z', 'Notes', 'after end');

    const result = await call('UserActivityFeed', { userId: mac.childId, range: DAY_15 });
    expect(result.status).toBe(200);
    const feed = result.body;
    expect(feed).toMatchObject({ userName: 'Sam', showSuspensionActivity: false, numDeleted: 2 });
    expect(feed.items).toHaveLength(3);
    expect(feed.items[0]).toEqual({
      case: 'keystrokeLine',
      id: l3,
      ids: [l3],
      appName: 'Notes',
      line: 'three',
      duringSuspension: false,
      flagged: false,
      createdAt: '2025-01-15T09:03:00.000Z',
    });
    expect(feed.items[1]).toMatchObject({
      case: 'screenshot',
      id: s1,
      ids: [s1],
      width: 1280,
      height: 800,
      flagged: true,
      duringSuspension: false,
    });
    expect(feed.items[2]).toEqual({
      case: 'keystrokeLine',
      id: l2,
      ids: [l2, l1],
      appName: 'Notes',
      line: 'one\ntwo',
      duringSuspension: true,
      flagged: false,
      createdAt: '2025-01-15T09:01:00.000Z',
    });
    // the image URL is the local store's signed GET for that object
    const url = new URL(feed.items[1].url);
    expect(url.pathname).toMatch(
      new RegExp(`^/screenshots/test-screenshots/${mac.computerUserId}/`),
    );
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  test('showSuspensionActivity comes from the child', async () => {
    const mac = await childWithMac(server, alice.adminId);
    await server.db
      .updateTable('children')
      .set({ show_suspension_activity: toDbBool(true) })
      .where('id', '=', mac.childId)
      .execute();
    const result = await call('UserActivityFeed', { userId: mac.childId, range: DAY_15 });
    expect(result.body).toMatchObject({ showSuspensionActivity: true, items: [], numDeleted: 0 });
  });

  test('a screenshot uploaded by the Mac is readable through the feed URL', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const upload = await deviceCall(server, 'CreateSignedScreenshotUpload', mac.token, {
      width: 100,
      height: 50,
    });
    expect((await requestSigned(server, 'PUT', upload.body.uploadUrl, TINY_JPEG)).status).toBe(200);
    const feed = await call('UserActivityFeed', { userId: mac.childId, range: DAY_15 });
    const image = await requestSigned(server, 'GET', feed.body.items[0].url);
    expect(image.status).toBe(200);
    expect(Buffer.compare(image.raw, TINY_JPEG)).toBe(0);
  });

  test.each([
    ['unparseable dates', { start: 'yesterday', end: '2025-01-15T23:59:59.999Z' }, 'b23f9a61'],
    [
      'an end before the start',
      { start: '2025-01-15T00:00:00Z', end: '2025-01-14T00:00:00Z' },
      'b23f9a61',
    ],
    [
      'a range over 31 days',
      { start: '2024-12-01T00:00:00.000Z', end: '2025-01-01T00:00:00.001Z' },
      '5e0d7c42',
    ],
  ])('%s is a 400 with a message', async (_name, range, id) => {
    const mac = await childWithMac(server, alice.adminId);
    const result = await call('UserActivityFeed', { userId: mac.childId, range });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ id, type: 'badRequest', userMessage: expect.any(String) });
  });

  test('exactly 31 days is allowed', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const result = await call('UserActivityFeed', {
      userId: mac.childId,
      range: { start: '2024-12-01T00:00:00.000Z', end: '2025-01-01T00:00:00.000Z' },
    });
    expect(result.status).toBe(200);
  });

  test("another parent's child is refused exactly like a missing one", async () => {
    const mac = await childWithMac(server, alice.adminId);
    await insertLine(server, mac.computerUserId, '2025-01-15T09:00:00Z', 'Notes', 'secret');
    const foreign = await call(
      'UserActivityFeed',
      { userId: mac.childId, range: DAY_15 },
      bob.token,
    );
    const missing = await call(
      'UserActivityFeed',
      { userId: newToken(), range: DAY_15 },
      bob.token,
    );
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(missing.body));
    expect(foreign.body).toMatchObject({ type: 'notFound', entityName: 'Child' });
  });
});

describe('CombinedUsersActivityFeed', () => {
  test("one feed per child of the parent, none of another parent's", async () => {
    const family = await server.signUpVerifiedParent();
    const other = await server.signUpVerifiedParent();
    const ann = await childWithMac(server, family.adminId, 'Ann');
    const zed = await childWithMac(server, family.adminId, 'Zed');
    // a second Mac for Zed: both Macs' items are in Zed's feed
    const { computerUserId: zedSecond } = await addComputerUser(
      server,
      family.adminId,
      zed.childId,
    );
    const stranger = await childWithMac(server, other.adminId, 'Stranger');
    await insertLine(server, ann.computerUserId, '2025-01-15T09:00:00Z', 'Notes', 'ann');
    await insertShot(server, zed.computerUserId, '2025-01-15T09:00:00Z');
    await insertLine(server, zedSecond, '2025-01-15T10:00:00Z', 'Pages', 'zed', {
      deletedAt: '2025-01-15T11:00:00.000Z',
    });
    await insertLine(server, zedSecond, '2025-01-15T10:30:00Z', 'Pages', 'zed 2');
    await insertLine(server, stranger.computerUserId, '2025-01-15T09:00:00Z', 'Notes', 'stranger');

    const result = await call('CombinedUsersActivityFeed', { range: DAY_15 }, family.token);
    expect(result.status).toBe(200);
    expect(
      result.body.map(
        (feed: { userName: string; numDeleted: number; items: { case: string }[] }) => [
          feed.userName,
          feed.numDeleted,
          feed.items.map((item) => item.case),
        ],
      ),
    ).toEqual([
      ['Ann', 0, ['keystrokeLine']],
      ['Zed', 1, ['keystrokeLine', 'screenshot']],
    ]);
    expect(JSON.stringify(result.body)).not.toContain('stranger');
  });

  test('the range rules apply', async () => {
    const tooWide = await call('CombinedUsersActivityFeed', {
      range: { start: '2024-11-01T00:00:00.000Z', end: '2025-01-01T00:00:00.000Z' },
    });
    expect(tooWide.status).toBe(400);
    expect(tooWide.body.id).toBe('5e0d7c42');
    const garbage = await call('CombinedUsersActivityFeed', { range: { start: '', end: '' } });
    expect(garbage.status).toBe(400);
  });
});

describe('ChildActivitySummaries and FamilyActivitySummaries', () => {
  test('days of the last two weeks, coalesced counts, local days, flagged older items', async () => {
    const family = await server.signUpVerifiedParent();
    const sam = await childWithMac(server, family.adminId, 'Sam');
    const kim = await childWithMac(server, family.adminId, 'Kim');
    const cu = sam.computerUserId;
    // 15 Jan (UTC): two Notes lines (one entry), a reviewed screenshot, a flagged one
    await insertLine(server, cu, '2025-01-15T09:00:00Z', 'Notes', 'a');
    await insertLine(server, cu, '2025-01-15T09:01:00Z', 'Notes', 'b');
    await insertShot(server, cu, '2025-01-15T09:05:00Z', { deletedAt: '2025-01-15T10:00:00.000Z' });
    await insertShot(server, cu, '2025-01-15T09:06:00Z', { flagged: '2025-01-15T10:00:00.000Z' });
    // 03:00Z on 15 Jan is still 14 Jan in New York (offset 300)
    await insertShot(server, cu, '2025-01-15T03:00:00Z');
    // 13 days ago: inside the window; 20 days ago: outside unless flagged and unreviewed
    await insertShot(server, cu, '2025-01-02T12:00:00Z');
    await insertShot(server, cu, '2024-12-26T12:00:00Z');
    await insertShot(server, cu, '2024-12-25T12:00:00Z', { flagged: '2024-12-25T13:00:00.000Z' });
    await insertShot(server, cu, '2024-12-24T12:00:00Z', {
      flagged: '2024-12-24T13:00:00.000Z',
      deletedAt: '2024-12-24T14:00:00.000Z',
    });
    await insertLine(server, kim.computerUserId, '2025-01-14T12:00:00Z', 'Safari', 'kim');

    const utc = await call(
      'ChildActivitySummaries',
      { childId: sam.childId, jsTimezoneOffsetMinutes: 0 },
      family.token,
    );
    expect(utc.status).toBe(200);
    expect(utc.body.childName).toBe('Sam');
    expect(utc.body.days).toEqual([
      { date: '2025-01-15T00:00:00.000Z', numTotal: 4, numApproved: 1, numFlagged: 1 },
      { date: '2025-01-02T00:00:00.000Z', numTotal: 1, numApproved: 0, numFlagged: 0 },
      { date: '2024-12-25T00:00:00.000Z', numTotal: 1, numApproved: 0, numFlagged: 1 },
    ]);

    const newYork = await call(
      'ChildActivitySummaries',
      { childId: sam.childId, jsTimezoneOffsetMinutes: 300 },
      family.token,
    );
    expect(newYork.body.days.slice(0, 2)).toEqual([
      { date: '2025-01-15T05:00:00.000Z', numTotal: 3, numApproved: 1, numFlagged: 1 },
      { date: '2025-01-14T05:00:00.000Z', numTotal: 1, numApproved: 0, numFlagged: 0 },
    ]);

    const familyDays = await call(
      'FamilyActivitySummaries',
      { jsTimezoneOffsetMinutes: 0 },
      family.token,
    );
    expect(familyDays.status).toBe(200);
    expect(
      familyDays.body.map((day: { date: string; numTotal: number }) => [day.date, day.numTotal]),
    ).toEqual([
      ['2025-01-15T00:00:00.000Z', 4],
      ['2025-01-14T00:00:00.000Z', 1],
      ['2025-01-02T00:00:00.000Z', 1],
      ['2024-12-25T00:00:00.000Z', 1],
    ]);

    // another parent sees none of it
    const stranger = await call(
      'FamilyActivitySummaries',
      { jsTimezoneOffsetMinutes: 0 },
      bob.token,
    );
    expect(stranger.body).toEqual([]);
  });

  test("another parent's child is refused exactly like a missing one", async () => {
    const mac = await childWithMac(server, alice.adminId);
    const foreign = await call(
      'ChildActivitySummaries',
      { childId: mac.childId, jsTimezoneOffsetMinutes: 0 },
      bob.token,
    );
    const missing = await call(
      'ChildActivitySummaries',
      { childId: newToken(), jsTimezoneOffsetMinutes: 0 },
      bob.token,
    );
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(missing.body));
  });

  test('an impossible time-zone offset is a 400 with a message', async () => {
    const result = await call('FamilyActivitySummaries', { jsTimezoneOffsetMinutes: 100_000 });
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toEqual(expect.any(String));
  });

  test('a child without activity has no days', async () => {
    const mac = await childWithMac(server, alice.adminId, 'Quiet');
    const result = await call('ChildActivitySummaries', {
      childId: mac.childId,
      jsTimezoneOffsetMinutes: -60,
    });
    expect(result.body).toEqual({ childName: 'Quiet', days: [] });
  });
});

describe('DeleteActivityItems_v2', () => {
  test('marks own unflagged items reviewed; flagged and foreign ones are skipped', async () => {
    const mine = await childWithMac(server, alice.adminId);
    const theirs = await childWithMac(server, bob.adminId);
    const line = await insertLine(
      server,
      mine.computerUserId,
      '2025-01-15T09:00:00Z',
      'Notes',
      'x',
    );
    const shot = await insertShot(server, mine.computerUserId, '2025-01-15T09:01:00Z');
    const flagged = await insertShot(server, mine.computerUserId, '2025-01-15T09:02:00Z', {
      flagged: '2025-01-15T10:00:00.000Z',
    });
    const foreignLine = await insertLine(
      server,
      theirs.computerUserId,
      '2025-01-15T09:00:00Z',
      'Notes',
      'y',
    );
    const foreignShot = await insertShot(server, theirs.computerUserId, '2025-01-15T09:00:00Z');

    const result = await call('DeleteActivityItems_v2', {
      keystrokeLineIds: [line, foreignLine],
      screenshotIds: [shot, flagged, foreignShot, newToken()],
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });
    const now = server.clock.now().toISOString();
    expect((await rowState('keystroke_lines', line)).deleted_at).toBe(now);
    expect((await rowState('screenshots', shot)).deleted_at).toBe(now);
    expect((await rowState('screenshots', flagged)).deleted_at).toBeNull();
    expect((await rowState('keystroke_lines', foreignLine)).deleted_at).toBeNull();
    expect((await rowState('screenshots', foreignShot)).deleted_at).toBeNull();

    // the feed now counts them as reviewed
    const feed = await call('UserActivityFeed', { userId: mine.childId, range: DAY_15 });
    expect(feed.body.numDeleted).toBe(2);
    expect(feed.body.items.map((item: { id: string }) => item.id)).toEqual([flagged]);
  });

  test("another parent's ids answer exactly like missing ones and change nothing", async () => {
    const mine = await childWithMac(server, alice.adminId);
    const line = await insertLine(
      server,
      mine.computerUserId,
      '2025-01-15T09:00:00Z',
      'Notes',
      'x',
    );
    const foreign = await call(
      'DeleteActivityItems_v2',
      { keystrokeLineIds: [line], screenshotIds: [] },
      bob.token,
    );
    const missing = await call(
      'DeleteActivityItems_v2',
      { keystrokeLineIds: [newToken()], screenshotIds: [] },
      bob.token,
    );
    expect([foreign.status, foreign.body]).toEqual([missing.status, missing.body]);
    expect((await rowState('keystroke_lines', line)).deleted_at).toBeNull();
  });

  test('at most 1000 ids per call, both lists together', async () => {
    const ids = (n: number) => Array.from({ length: n }, () => newToken());
    const ok = await call('DeleteActivityItems_v2', {
      keystrokeLineIds: ids(500),
      screenshotIds: ids(500),
    });
    expect(ok.status).toBe(200);
    const tooMany = await call('DeleteActivityItems_v2', {
      keystrokeLineIds: ids(501),
      screenshotIds: ids(500),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ type: 'badRequest', userMessage: expect.any(String) });
  });
});

describe('FlagActivityItems', () => {
  test('toggles screenshots first; lines only when no screenshot matched', async () => {
    const mac = await childWithMac(server, alice.adminId);
    const shot = await insertShot(server, mac.computerUserId, '2025-01-15T09:00:00Z');
    const line1 = await insertLine(
      server,
      mac.computerUserId,
      '2025-01-15T09:01:00Z',
      'Notes',
      'a',
    );
    const line2 = await insertLine(
      server,
      mac.computerUserId,
      '2025-01-15T09:02:00Z',
      'Notes',
      'b',
    );
    const now = server.clock.now().toISOString();

    expect((await call('FlagActivityItems', [shot, line1])).status).toBe(200);
    expect((await rowState('screenshots', shot)).flagged).toBe(now);
    expect((await rowState('keystroke_lines', line1)).flagged).toBeNull();

    expect((await call('FlagActivityItems', [line2, line1])).status).toBe(200);
    expect((await rowState('keystroke_lines', line1)).flagged).toBe(now);
    expect((await rowState('keystroke_lines', line2)).flagged).toBe(now);

    // toggles back
    expect((await call('FlagActivityItems', [shot])).status).toBe(200);
    expect((await rowState('screenshots', shot)).flagged).toBeNull();

    // a flagged item survives a delete
    await call('DeleteActivityItems_v2', { keystrokeLineIds: [line1, line2], screenshotIds: [] });
    expect((await rowState('keystroke_lines', line1)).deleted_at).toBeNull();
  });

  test("another parent's ids are refused exactly like missing ones and stay unflagged", async () => {
    const mac = await childWithMac(server, alice.adminId);
    const shot = await insertShot(server, mac.computerUserId, '2025-01-15T09:00:00Z');
    const line = await insertLine(server, mac.computerUserId, '2025-01-15T09:01:00Z', 'Notes', 'a');
    const foreign = await call('FlagActivityItems', [shot, line], bob.token);
    const missing = await call('FlagActivityItems', [newToken()], bob.token);
    expect(foreign.status).toBe(404);
    expect(withoutRequestId(foreign.body)).toEqual(withoutRequestId(missing.body));
    expect((await rowState('screenshots', shot)).flagged).toBeNull();
    expect((await rowState('keystroke_lines', line)).flagged).toBeNull();
  });

  test('at most 1000 ids', async () => {
    const result = await call(
      'FlagActivityItems',
      Array.from({ length: 1001 }, () => newToken()),
    );
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toEqual(expect.any(String));
  });
});
