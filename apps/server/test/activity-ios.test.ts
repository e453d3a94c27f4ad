import { describe, expect, test } from 'vitest';
import {
  childWithIpad,
  childWithMac,
  insertIosShot,
  insertLine,
  insertShot,
  requestSigned,
  TINY_JPEG,
} from './activity-helpers.ts';
import { serverWithParents } from './fixtures.ts';

// Issue 18: an iPhone's or iPad's screenshots (screenshots.ios_device_id) are part of its child's
// activity review, under the same rules as a Mac's: feeds, summaries, the home page, review and flag,
// and refused to another family exactly like missing items. The dashboard's wire shapes stay as they
// are. The fake clock stands at 2025-01-15T12:00:00Z.

const { server, alice, bob } = await serverWithParents();
const DAY_15 = { start: '2025-01-14T23:59:59.999Z', end: '2025-01-15T23:59:59.999Z' };

const call = (op: string, input: unknown, token = alice.token) => server.call(op, input, { token });

async function screenshotRow(id: string) {
  return server.db
    .selectFrom('screenshots')
    .select(['deleted_at', 'flagged'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe("an iPad's screenshots in the child's activity review", () => {
  test('the feed merges them with the Mac’s items, newest first, as taken during a suspension', async () => {
    const mac = await childWithMac(server, alice.adminId, 'Mia');
    const ipad = await childWithIpad(server, alice.adminId, { childId: mac.childId });
    const line = await insertLine(
      server,
      mac.computerUserId,
      '2025-01-15T09:00:00.000Z',
      'Notes',
      'hi',
    );
    const macShot = await insertShot(server, mac.computerUserId, '2025-01-15T10:00:00.000Z');
    const ipadShot = await insertIosShot(server, ipad.deviceId, '2025-01-15T11:00:00.000Z');

    const feed = await call('UserActivityFeed', { userId: mac.childId, range: DAY_15 });
    expect(feed.status).toBe(200);
    expect(feed.body).toMatchObject({ userName: 'Mia', numDeleted: 0 });
    expect(feed.body.items.map((item: { id: string }) => item.id)).toEqual([
      ipadShot,
      macShot,
      line,
    ]);
    expect(feed.body.items[0]).toEqual({
      case: 'screenshot',
      id: ipadShot,
      ids: [ipadShot],
      url: expect.stringMatching(/\/screenshots\/test-screenshots\/.+\?expires=\d+&signature=/),
      width: 1280,
      height: 800,
      duringSuspension: true,
      flagged: false,
      createdAt: '2025-01-15T11:00:00.000Z',
    });
  });

  test('a child with only an iPad: feed, summaries, family, combined feed and home', async () => {
    const carol = await server.signUpVerifiedParent();
    const ipad = await childWithIpad(server, carol.adminId, { name: 'Ivy' });
    const reviewed = await insertIosShot(server, ipad.deviceId, '2025-01-15T08:00:00.000Z', {
      deletedAt: '2025-01-15T08:30:00.000Z',
    });
    const shot = await insertIosShot(server, ipad.deviceId, '2025-01-15T09:00:00.000Z');
    await insertIosShot(server, ipad.deviceId, '2025-01-14T09:00:00.000Z', {
      flagged: '2025-01-14T10:00:00.000Z',
    });

    const feed = await call(
      'UserActivityFeed',
      { userId: ipad.childId, range: DAY_15 },
      carol.token,
    );
    expect(feed.body.numDeleted).toBe(1);
    expect(feed.body.items.map((item: { id: string }) => item.id)).toEqual([shot]);
    expect(feed.body.items.map((item: { id: string }) => item.id)).not.toContain(reviewed);

    const days = [
      { date: '2025-01-15T00:00:00.000Z', numTotal: 2, numApproved: 1, numFlagged: 0 },
      { date: '2025-01-14T00:00:00.000Z', numTotal: 1, numApproved: 0, numFlagged: 1 },
    ];
    const summaries = await call(
      'ChildActivitySummaries',
      { childId: ipad.childId, jsTimezoneOffsetMinutes: 0 },
      carol.token,
    );
    expect(summaries.body).toEqual({ childName: 'Ivy', days });
    const family = await call(
      'FamilyActivitySummaries',
      { jsTimezoneOffsetMinutes: 0 },
      carol.token,
    );
    expect(family.body).toEqual(days);

    const combined = await call('CombinedUsersActivityFeed', { range: DAY_15 }, carol.token);
    expect(combined.body).toHaveLength(1);
    expect(combined.body[0]).toMatchObject({ userName: 'Ivy', numDeleted: 1 });
    expect(combined.body[0].items.map((item: { id: string }) => item.id)).toEqual([shot]);

    const home = await call('DashboardWidgets', undefined, carol.token);
    expect(home.status).toBe(200);
    expect(home.body.childActivitySummaries).toEqual([
      { id: ipad.childId, name: 'Ivy', numUnreviewed: 2, numReviewed: 1 },
    ]);
    expect(home.body.recentScreenshots).toEqual([
      {
        id: shot,
        childName: 'Ivy',
        url: expect.stringContaining('/screenshots/'),
        createdAt: '2025-01-15T09:00:00.000Z',
      },
    ]);
  });

  test('an uploaded iPad screenshot is readable through its feed URL', async () => {
    const ipad = await childWithIpad(server, alice.adminId);
    const issued = await server.call(
      'ScreenshotUploadUrl',
      { width: 1170, height: 2532, createdAt: 758_635_200 }, // 2025-01-15T12:00:00Z since 2001
      { namespace: 'ios-app', token: ipad.token },
    );
    expect(issued.status).toBe(200);
    expect((await requestSigned(server, 'PUT', issued.body.uploadUrl, TINY_JPEG)).status).toBe(200);
    const feed = await call('UserActivityFeed', { userId: ipad.childId, range: DAY_15 });
    expect(feed.body.items).toHaveLength(1);
    expect(feed.body.items[0]).toMatchObject({ width: 1170, height: 2532, duringSuspension: true });
    const image = await requestSigned(server, 'GET', feed.body.items[0].url);
    expect(Buffer.compare(image.raw, TINY_JPEG)).toBe(0);
  });

  test('review and flag work on them as on a Mac’s', async () => {
    const ipad = await childWithIpad(server, alice.adminId);
    const first = await insertIosShot(server, ipad.deviceId, '2025-01-15T09:00:00.000Z');
    const second = await insertIosShot(server, ipad.deviceId, '2025-01-15T09:01:00.000Z');

    expect((await call('FlagActivityItems', [second])).status).toBe(200);
    expect((await screenshotRow(second)).flagged).toBe(server.clock.now().toISOString());
    const reviewed = await call('DeleteActivityItems_v2', {
      keystrokeLineIds: [],
      screenshotIds: [first, second],
    });
    expect(reviewed.status).toBe(200);
    // flagged items are not reviewed
    expect(await screenshotRow(first)).toEqual({
      deleted_at: server.clock.now().toISOString(),
      flagged: null,
    });
    expect((await screenshotRow(second)).deleted_at).toBeNull();
    const feed = await call('UserActivityFeed', { userId: ipad.childId, range: DAY_15 });
    expect(feed.body.numDeleted).toBe(1);
    expect(feed.body.items.map((item: { id: string }) => item.id)).toEqual([second]);
  });
});

describe('another family', () => {
  test("is refused an iPad child's activity exactly like a missing child, and sees none of it", async () => {
    const ipad = await childWithIpad(server, alice.adminId, { name: 'Zoe' });
    const shot = await insertIosShot(server, ipad.deviceId, '2025-01-15T09:00:00.000Z');
    const own = await call('UserActivityFeed', { userId: ipad.childId, range: DAY_15 });
    expect(own.body.items.map((item: { id: string }) => item.id)).toEqual([shot]);

    const feed = await call('UserActivityFeed', { userId: ipad.childId, range: DAY_15 }, bob.token);
    expect(feed.status).toBe(404);
    expect(feed.body).toMatchObject({ type: 'notFound', entityName: 'Child' });
    const summaries = await call(
      'ChildActivitySummaries',
      { childId: ipad.childId, jsTimezoneOffsetMinutes: 0 },
      bob.token,
    );
    expect(summaries.status).toBe(404);
    expect(summaries.body).toMatchObject({ type: 'notFound', entityName: 'Child' });

    expect(
      (await call('FamilyActivitySummaries', { jsTimezoneOffsetMinutes: 0 }, bob.token)).body,
    ).toEqual([]);
    expect((await call('CombinedUsersActivityFeed', { range: DAY_15 }, bob.token)).body).toEqual(
      [],
    );
    const home = await call('DashboardWidgets', undefined, bob.token);
    expect(home.body.recentScreenshots).toEqual([]);

    const flag = await call('FlagActivityItems', [shot], bob.token);
    expect(flag.status).toBe(404);
    expect(flag.body).toMatchObject({ type: 'notFound', entityName: 'ActivityItem' });
    const review = await call(
      'DeleteActivityItems_v2',
      { keystrokeLineIds: [], screenshotIds: [shot] },
      bob.token,
    );
    expect(review.status).toBe(200);
    expect(await screenshotRow(shot)).toEqual({ deleted_at: null, flagged: null });
  });
});
