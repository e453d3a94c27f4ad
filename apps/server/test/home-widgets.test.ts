import { DashboardWidgetsOutput } from '@keyward/contract/shared';
import { describe, expect, test } from 'vitest';
import { createAnnouncements } from '../src/announcements.ts';
import { addMs, DAY, HOUR, MINUTE, toDbTime } from '../src/db/values.ts';
import { newToken } from '../src/services/tokens.ts';
import { insertLine, insertShot } from './activity-helpers.ts';
import {
  addChild,
  addComputerUser,
  addMacToken,
  deviceCall,
  reportState,
  serverWithParents,
} from './fixtures.ts';
import type { TestServer } from './harness.ts';
import { accountEmailMethod, addRule } from './notifications-fixtures.ts';

// server-behaviour §3.7 DashboardWidgets, the three situations of the spec's home page, and the
// announcement's life (created from the command line's function, expiring, dismissed per parent).

const { server, alice, bob } = await serverWithParents();

async function widgets(token: string) {
  const result = await server.call('DashboardWidgets', undefined, { token });
  expect(result.status).toBe(200);
  return DashboardWidgetsOutput.parse(result.body);
}

const ago = (s: TestServer, ms: number) => addMs(s.clock.now(), -ms).toISOString();

describe('DashboardWidgets', () => {
  test('situation 3, no children: everything empty and no announcement, even with one stored', async () => {
    const carol = await server.signUpVerifiedParent();
    server.clock.advance(3 * DAY);
    await createAnnouncements(server.db, server.clock.now(), {
      html: 'New: <b>weekly reports</b>',
      to: { emails: [carol.email] },
    });
    expect(await widgets(carol.token)).toEqual({
      children: [],
      childActivitySummaries: [],
      unlockRequests: [],
      recentScreenshots: [],
      numParentNotifications: 0,
    });
  });

  test('situation 1, a child without computers: the child offline with no devices', async () => {
    const dave = await server.signUpVerifiedParent();
    const childId = await addChild(server, dave.adminId, { name: 'Noa' });
    const body = await widgets(dave.token);
    expect(body.children).toEqual([
      { id: childId, name: 'Noa', status: { case: 'offline' }, numDevices: 0 },
    ]);
    expect(body.childActivitySummaries).toEqual([]);
    expect(body.recentScreenshots).toEqual([]);
    // VerifySignupEmail creates the email method but no notification rule
    expect(body.numParentNotifications).toBe(0);
  });

  test('situation 2: statuses, activity, newest screenshots, pending requests, notifications, announcement', async () => {
    const samId = await addChild(server, alice.adminId, { name: 'Sam' });
    server.clock.advance(1000); // children are listed in creation order
    const kimId = await addChild(server, alice.adminId, { name: 'Kim' });
    const samMac = await addComputerUser(server, alice.adminId, samId);
    const samMac2 = await addComputerUser(server, alice.adminId, samId, { numericId: 502 });
    const kimMac = await addComputerUser(server, alice.adminId, kimId);
    await reportState(server, samMac.computerUserId, { case: 'on' });
    await reportState(server, samMac2.computerUserId, { case: 'off' });
    await reportState(server, kimMac.computerUserId, { case: 'on' });

    // Sam: two lines of one app coalesce into one entry; one reviewed screenshot; an old line
    const reviewedAt = ago(server, MINUTE);
    await insertLine(server, samMac.computerUserId, ago(server, 2 * HOUR), 'Notes', 'hello');
    await insertLine(server, samMac.computerUserId, ago(server, 2 * HOUR - 1000), 'Notes', 'world');
    const samOldShot = await insertShot(server, samMac.computerUserId, ago(server, 3 * HOUR));
    const samNewShot = await insertShot(server, samMac2.computerUserId, ago(server, HOUR), {
      deletedAt: reviewedAt,
    });
    await insertShot(server, samMac.computerUserId, ago(server, 20 * DAY));
    // Kim: one unreviewed screenshot
    const kimShot = await insertShot(server, kimMac.computerUserId, ago(server, 30 * MINUTE));

    const token = await addMacToken(server, samId, samMac.computerUserId);
    const created = await deviceCall(server, 'CreateUnlockRequests_v3', token, {
      blockedRequests: [
        { bundleId: 'com.apple.Safari', url: 'https://example.com/page' },
        { bundleId: 'com.apple.Safari', hostname: 'khanacademy.org' },
      ],
      comment: 'for homework',
    });
    expect(created.status).toBe(200);
    const [firstRequest] = created.body as string[];
    await server.db
      .updateTable('unlock_requests')
      .set({ status: 'rejected' })
      .where('id', '=', firstRequest!)
      .execute();

    const method = await accountEmailMethod(server, alice.adminId);
    await addRule(server, alice.adminId, method, 'unlockRequestSubmitted');
    await addRule(server, alice.adminId, method, 'suspendFilterRequestSubmitted');

    await createAnnouncements(server.db, addMs(server.clock.now(), -DAY), {
      html: 'Older news',
      icon: 'megaphone',
      learnMoreUrl: 'https://example.com/news',
      to: { emails: [alice.email] },
    });
    await createAnnouncements(server.db, server.clock.now(), {
      html: 'Newer news',
      to: { emails: [alice.email] },
    });

    const body = await widgets(alice.token);
    expect(body.children).toEqual([
      { id: samId, name: 'Sam', status: { case: 'filterOff' }, numDevices: 2 },
      { id: kimId, name: 'Kim', status: { case: 'filterOn' }, numDevices: 1 },
    ]);
    expect(body.childActivitySummaries).toEqual([
      { id: samId, name: 'Sam', numUnreviewed: 2, numReviewed: 1 },
      { id: kimId, name: 'Kim', numUnreviewed: 1, numReviewed: 0 },
    ]);
    expect(body.recentScreenshots.map((s) => [s.id, s.childName])).toEqual([
      [kimShot, 'Kim'],
      [samNewShot, 'Sam'],
    ]);
    expect(body.recentScreenshots.map((s) => s.id)).not.toContain(samOldShot);
    // the url is the storage's signed read URL, and it serves the object's route
    expect(body.recentScreenshots[0]!.url).toMatch(/\/screenshots\/.+\?expires=\d+&signature=/);
    expect(body.unlockRequests).toHaveLength(1);
    expect(body.unlockRequests[0]).toMatchObject({
      childId: samId,
      childName: 'Sam',
      target: 'khanacademy.org',
      comment: 'for homework',
    });
    expect(body.numParentNotifications).toBe(2);
    expect(body.announcement).toEqual({
      id: expect.any(String),
      icon: 'megaphone',
      html: 'Older news',
      learnMoreUrl: 'https://example.com/news',
    });

    // Bob sees none of it
    const bobs = await widgets(bob.token);
    expect(bobs.children).toEqual([]);
    expect(bobs.announcement).toBeUndefined();
  });

  test('a Mac offline for more than 100 s counts as offline', async () => {
    const erin = await server.signUpVerifiedParent();
    const childId = await addChild(server, erin.adminId, { name: 'Lou' });
    const mac = await addComputerUser(server, erin.adminId, childId);
    await reportState(server, mac.computerUserId, { case: 'on' });
    expect((await widgets(erin.token)).children[0]!.status).toEqual({ case: 'filterOn' });
    server.clock.advance(101_000);
    expect((await widgets(erin.token)).children[0]!.status).toEqual({ case: 'offline' });
  });
});

describe('announcements', () => {
  test('dismissing one hides it for this parent only; the next oldest shows; expiry hides it', async () => {
    const frank = await server.signUpVerifiedParent();
    const grace = await server.signUpVerifiedParent();
    for (const parent of [frank, grace]) await addChild(server, parent.adminId);
    const now = server.clock.now();
    await createAnnouncements(server.db, addMs(now, -2 * DAY), {
      html: 'First',
      days: 30,
      to: { emails: [frank.email, grace.email] },
    });
    await createAnnouncements(server.db, now, {
      html: 'Second',
      days: 1,
      to: { emails: [frank.email] },
    });
    const first = (await widgets(frank.token)).announcement!;
    expect(first.html).toBe('First');

    // another parent cannot dismiss it: refused exactly like a missing id
    const foreign = await server.call(
      'DeleteEntity_v2',
      { type: 'announcement', id: first.id },
      { token: grace.token },
    );
    const missing = await server.call(
      'DeleteEntity_v2',
      { type: 'announcement', id: newToken() },
      { token: grace.token },
    );
    expect(foreign.status).toBe(404);
    const comparable = (body: object) => ({ ...body, requestId: 0, serverRequestId: 0 });
    expect(comparable(foreign.body)).toEqual(comparable(missing.body));
    expect((await widgets(frank.token)).announcement?.id).toBe(first.id);

    const dismissed = await server.call(
      'DeleteEntity_v2',
      { type: 'announcement', id: first.id },
      { token: frank.token },
    );
    expect(dismissed.body).toEqual({ success: true });
    expect((await widgets(frank.token)).announcement?.html).toBe('Second');
    expect((await widgets(grace.token)).announcement?.html).toBe('First');

    server.clock.advance(DAY + 1);
    expect((await widgets(frank.token)).announcement).toBeUndefined();
    server.clock.set(now);
  });

  test('--all reaches verified parents older than 2 days; bad input is refused with a reason', async () => {
    const before = await server.db.selectFrom('announcements').select('id').execute();
    const start = server.clock.now();
    const later = addMs(start, 10 * DAY);
    server.clock.set(addMs(later, -DAY));
    const young = await server.signUpVerifiedParent();
    server.clock.set(start);
    const recipients = await createAnnouncements(server.db, later, {
      html: 'For everyone',
      to: { all: true },
    });
    expect(recipients).toContain(alice.email);
    expect(recipients).not.toContain(young.email);
    expect(recipients).not.toContain('catalogue@keyward.invalid');
    const rows = await server.db.selectFrom('announcements').select('id').execute();
    expect(rows.length - before.length).toBe(recipients.length);

    await expect(
      createAnnouncements(server.db, later, { html: ' ', to: { all: true } }),
    ).rejects.toThrow('empty');
    await expect(
      createAnnouncements(server.db, later, {
        html: 'x',
        learnMoreUrl: 'javascript:alert(1)',
        to: { all: true },
      }),
    ).rejects.toThrow('http(s)');
    await expect(
      createAnnouncements(server.db, later, { html: 'x', to: { emails: ['nobody@example.com'] } }),
    ).rejects.toThrow('no account for nobody@example.com');
    await expect(
      createAnnouncements(server.db, later, { html: 'x', days: 0, to: { all: true } }),
    ).rejects.toThrow('--days');
  });

  test('expired rows stay out of DashboardWidgets even before retention removes them', async () => {
    const hank = await server.signUpVerifiedParent();
    await addChild(server, hank.adminId);
    await server.db
      .insertInto('announcements')
      .values({
        id: newToken(),
        parent_id: hank.adminId,
        icon: null,
        html: 'Gone',
        learn_more_url: null,
        created_at: toDbTime(addMs(server.clock.now(), -31 * DAY)),
        deleted_at: toDbTime(addMs(server.clock.now(), -DAY)),
      })
      .execute();
    expect((await widgets(hank.token)).announcement).toBeUndefined();
  });
});
