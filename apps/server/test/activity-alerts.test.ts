import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { describe, expect, test } from 'vitest';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { newToken } from '../src/services/tokens.ts';
import {
  addChild,
  connectedMac,
  deviceCall,
  securityEvents,
  serverWithParents,
} from './fixtures.ts';
import { accountEmailMethod, addRule } from './notifications-fixtures.ts';

// Issue 24: alerts on typed text. CreateKeystrokeLines flags a line that matches the child's alert
// words with its category (answer unchanged), the feeds carry `alert` on that line only, the parent
// is notified once per grouping window ('activityAlert'), unflagging reports a false alert, and
// ChildActivityInsights sums up the week (another family's child is notFound).

const { server, alice, bob } = await serverWithParents();
await addRule(
  server,
  alice.adminId,
  await accountEmailMethod(server, alice.adminId),
  'activityAlert',
);

const alertMails = () => server.mails.filter((mail) => mail.template === 'notify-activity-alert');

async function childWithMac(parentId: string, keyloggingEnabled = true, name = 'Sam') {
  const childId = await addChild(server, parentId, { keyloggingEnabled, name });
  const mac = await connectedMac(server, parentId, { childId });
  return mac;
}

function typed(token: string, lines: [appName: string, line: string][]) {
  const at = server.clock.now().getTime();
  return deviceCall(
    server,
    'CreateKeystrokeLines',
    token,
    lines.map(([appName, line], i) => ({
      appName,
      line,
      time: toSwiftReferenceSeconds(new Date(at - (lines.length - i) * 1000)),
    })),
  );
}

async function storedLines(computerUserId: string) {
  return server.db
    .selectFrom('keystroke_lines')
    .select(['id', 'line', 'flagged', 'alert_category', 'alert_words'])
    .where('computer_user_id', '=', computerUserId)
    .orderBy('created_at')
    .execute();
}

const today = () => {
  const now = server.clock.now().getTime();
  return {
    start: new Date(now - 24 * 3600 * 1000).toISOString(),
    end: new Date(now + 1000).toISOString(),
  };
};

describe('CreateKeystrokeLines flags alerted lines', () => {
  test('self-harm is on by default: the line is flagged with its alert, the answer unchanged', async () => {
    const sam = await childWithMac(alice.adminId);
    const result = await typed(sam.token, [
      ['Messages', 'hello there'],
      ['Messages', 'i wanna diiiie'],
      ['Messages', 'send nudes'],
      ['Messages', 'what a skill'],
    ]);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true });

    const rows = await storedLines(sam.computerUserId);
    expect(rows.map((row) => [row.line, row.flagged !== null, row.alert_category])).toEqual([
      ['hello there', false, null],
      ['i wanna diiiie', true, 'selfHarm'],
      // sexual content is off until the parent turns it on
      ['send nudes', false, null],
      ['what a skill', false, null],
    ]);

    const feed = await server.call(
      'UserActivityFeed',
      { userId: sam.childId, range: today() },
      { token: alice.token },
    );
    expect(feed.status).toBe(200);
    const items = feed.body.items as Record<string, unknown>[];
    // the alerted line is an entry of its own; the lines around it coalesce as before
    expect(items.map((item) => [item.line, item.flagged, item.alert])).toEqual([
      ['send nudes\nwhat a skill', false, undefined],
      ['i wanna diiiie', true, { category: 'selfHarm', words: ['wanna die'] }],
      ['hello there', false, undefined],
    ]);
    // items without an alert have no new key at all
    expect(Object.keys(items[0]!).sort()).toEqual(
      ['appName', 'case', 'createdAt', 'duringSuspension', 'flagged', 'id', 'ids', 'line'].sort(),
    );
    const summaries = await server.call(
      'ChildActivitySummaries',
      { childId: sam.childId, jsTimezoneOffsetMinutes: 0 },
      { token: alice.token },
    );
    expect(summaries.body.days).toEqual([
      expect.objectContaining({ numTotal: 3, numFlagged: 1, numAlerts: 1 }),
    ]);
    const combined = await server.call(
      'CombinedUsersActivityFeed',
      { range: today() },
      { token: alice.token },
    );
    const samsFeed = (combined.body as unknown as { items: Record<string, unknown>[] }[]).find(
      (f) => f.items.some((item) => item.line === 'i wanna diiiie'),
    );
    expect(samsFeed?.items.find((item) => item.alert)?.alert).toEqual({
      category: 'selfHarm',
      words: ['wanna die'],
    });
  });

  test('no alerts while keylogging is off', async () => {
    await notificationsDelivered();
    const before = alertMails().length;
    const quiet = await childWithMac(alice.adminId, false);
    await typed(quiet.token, [['Messages', 'i want to kill myself']]);
    await notificationsDelivered();
    const rows = await storedLines(quiet.computerUserId);
    expect(rows.map((row) => [row.flagged, row.alert_category])).toEqual([[null, null]]);
    expect(alertMails()).toHaveLength(before);
  });
});

describe('activityAlert notifications', () => {
  test('alerts of one window are one notification, without the typed words', async () => {
    await notificationsDelivered();
    const before = alertMails().length;
    const kim = await childWithMac(alice.adminId, true, 'Kim');
    await typed(kim.token, [['Discord', 'i want to die']]);
    await typed(kim.token, [
      ['Discord', 'nothing here'],
      ['Notes', 'kill myself'],
    ]);
    await notificationsDelivered();
    const mails = alertMails().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(alice.email);
    expect(mails[0]!.subject).toMatch(/^2 alerts on what Kim typed \[ref:/);
    expect(mails[0]!.text).toContain('2 things Kim typed matched alerts (self-harm).');
    expect(mails[0]!.text).toContain(`/children/${kim.childId}/activity`);
    expect(mails[0]!.text).not.toMatch(/die|kill/i);

    // the next window is a new notification
    server.clock.advance(server.config.notificationGroupSeconds * 1000);
    await typed(kim.token, [['Discord', 'suicide']]);
    await notificationsDelivered();
    const next = alertMails().slice(before + 1);
    expect(next).toHaveLength(1);
    expect(next[0]!.subject).toMatch(/^Alert on what Kim typed \[ref:/);
  });

  test('a parent with no rules at all gets the fallback email', async () => {
    await notificationsDelivered();
    const before = alertMails().length;
    const bobsChild = await childWithMac(bob.adminId, true, 'Lee');
    await typed(bobsChild.token, [['Safari', 'better off dead']]);
    await notificationsDelivered();
    const mails = alertMails().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(bob.email);
    expect(mails[0]!.text).toContain("haven't set up any notifications yet");
  });

  test('SaveNotification accepts the new trigger', async () => {
    const method = await accountEmailMethod(server, bob.adminId);
    const id = newToken();
    const saved = await server.call(
      'SaveNotification',
      { id, isNew: true, methodId: method, trigger: 'activityAlert' },
      { token: bob.token },
    );
    expect(saved.body).toEqual({ success: true });
    const admin = await server.call('GetAdmin', undefined, { token: bob.token });
    expect(admin.body.notifications).toContainEqual({
      id,
      trigger: 'activityAlert',
      methodId: method,
    });
  });
});

describe('alert settings travel with the child (SaveUser, GetUser)', () => {
  const saveInput = (childId: string, extra: Record<string, unknown> = {}) => ({
    id: childId,
    isNew: false,
    name: 'Ada',
    keyloggingEnabled: true,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 120,
    showSuspensionActivity: false,
    keychains: [],
    ...extra,
  });

  test('turned on, kept when omitted, and used for the next lines', async () => {
    const ada = await childWithMac(alice.adminId, true, 'Ada');
    const initial = await server.call('GetUser', ada.childId, { token: alice.token });
    expect(initial.body).toMatchObject({ alertCategories: ['selfHarm'], alertWords: [] });

    const saved = await server.call(
      'SaveUser',
      saveInput(ada.childId, {
        alertCategories: ['sexualContent', 'selfHarm'],
        alertWords: [' Jordan ', 'jordan', 'secret club'],
      }),
      { token: alice.token },
    );
    expect(saved.body).toEqual({ success: true });
    // the reference dashboard's request, without the new fields: unchanged
    await server.call('SaveUser', saveInput(ada.childId), { token: alice.token });
    const read = await server.call('GetUser', ada.childId, { token: alice.token });
    expect(read.body).toMatchObject({
      alertCategories: ['selfHarm', 'sexualContent'],
      alertWords: ['Jordan', 'secret club'],
    });

    await typed(ada.token, [
      ['Messages', 'send nudes'],
      ['Messages', 'meet JORDAN later'],
    ]);
    const rows = await storedLines(ada.computerUserId);
    expect(rows.map((row) => row.alert_category)).toEqual(['sexualContent', 'custom']);

    const unknown = await server.call(
      'SaveUser',
      saveInput(ada.childId, { alertCategories: ['gambling'] }),
      { token: alice.token },
    );
    expect(unknown.status).toBe(400);

    // turning a list off lowers monitoring: a security event says which
    await server.call('SaveUser', saveInput(ada.childId, { alertCategories: ['sexualContent'] }), {
      token: alice.token,
    });
    const events = await securityEvents(server, alice.adminId, 'monitoringDecreased');
    expect(events.at(-1)?.detail).toBe('child: Ada; alerts off: Self-harm');
  });

  test('a new child starts with self-harm on', async () => {
    const id = newToken();
    await server.call('SaveUser', { ...saveInput(id), isNew: true }, { token: alice.token });
    const read = await server.call('GetUser', id, { token: alice.token });
    expect(read.body).toMatchObject({ alertCategories: ['selfHarm'], alertWords: [] });
  });
});

describe('reporting a false alert (unflag)', () => {
  test('drops the alert, counts the word, and shows the count in the insights', async () => {
    const max = await childWithMac(alice.adminId, true, 'Max');
    await typed(max.token, [['Messages', 'i hate my life lol, math test']]);
    const [row] = await storedLines(max.computerUserId);
    expect(row?.alert_category).toBe('selfHarm');

    const unflag = await server.call('FlagActivityItems', [row!.id], { token: alice.token });
    expect(unflag.body).toEqual({ success: true });
    const [after] = await storedLines(max.computerUserId);
    expect([after?.flagged, after?.alert_category, after?.alert_words]).toEqual([null, null, null]);

    const insights = await server.call(
      'ChildActivityInsights',
      { childId: max.childId, jsTimezoneOffsetMinutes: 0 },
      { token: alice.token },
    );
    expect(insights.body.falseAlerts).toEqual([
      { category: 'selfHarm', word: 'hate my life', count: 1 },
    ]);

    // flagging it again by hand is an ordinary flag: no alert comes back, nothing more counted
    await server.call('FlagActivityItems', [row!.id], { token: alice.token });
    await server.call('FlagActivityItems', [row!.id], { token: alice.token });
    const again = await server.call(
      'ChildActivityInsights',
      { childId: max.childId, jsTimezoneOffsetMinutes: 0 },
      { token: alice.token },
    );
    expect(again.body.falseAlerts).toEqual([
      { category: 'selfHarm', word: 'hate my life', count: 1 },
    ]);
  });
});

describe('ChildActivityInsights', () => {
  test("the week's counts, apps and alerts", async () => {
    const zoe = await childWithMac(alice.adminId, true, 'Zoe');
    await typed(zoe.token, [
      ['Messages', 'hi'],
      ['Messages', 'i want to die'],
      ['Notes', 'homework'],
      ['Messages', 'ok'],
    ]);
    const result = await server.call(
      'ChildActivityInsights',
      { childId: zoe.childId, jsTimezoneOffsetMinutes: 0 },
      { token: alice.token },
    );
    expect(result.status).toBe(200);
    const body = result.body as Record<string, unknown> & {
      days: { numItems: number; numAlerts: number }[];
      hours: number[];
    };
    expect(body.childName).toBe('Zoe');
    expect(body.days).toHaveLength(7);
    expect(body.hours).toHaveLength(24);
    expect(body.days.at(-1)).toMatchObject({ numItems: 4, numAlerts: 1 });
    expect(body).toMatchObject({
      keyloggingEnabled: true,
      numItems: 4,
      numAlerts: 1,
      numFlagged: 1,
      alertsByCategory: [{ category: 'selfHarm', numAlerts: 1 }],
      topApps: [
        { appName: 'Messages', numLines: 3 },
        { appName: 'Notes', numLines: 1 },
      ],
      topRequests: [],
      suspendedSeconds: 0,
      falseAlerts: [],
    });
    expect(body.hours.reduce((a, b) => a + b, 0)).toBe(4);
  });

  test("another family's child is notFound, like a missing one", async () => {
    const alices = await childWithMac(alice.adminId, true, 'Ivy');
    const foreign = await server.call(
      'ChildActivityInsights',
      { childId: alices.childId, jsTimezoneOffsetMinutes: 0 },
      { token: bob.token },
    );
    const missing = await server.call(
      'ChildActivityInsights',
      { childId: newToken(), jsTimezoneOffsetMinutes: 0 },
      { token: bob.token },
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.type).toBe('notFound');
    expect(missing.status).toBe(404);
    // bob cannot unflag alice's alert either
    await typed(alices.token, [['Messages', 'kms']]);
    const [row] = await storedLines(alices.computerUserId);
    const unflag = await server.call('FlagActivityItems', [row!.id], { token: bob.token });
    expect(unflag.status).toBe(404);
    const [still] = await storedLines(alices.computerUserId);
    expect(still?.alert_category).toBe('selfHarm');
  });
});
