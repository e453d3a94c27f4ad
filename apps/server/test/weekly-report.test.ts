import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { describe, expect, test } from 'vitest';
import { DAY, HOUR } from '../src/db/values.ts';
import { localTime, runWeeklyReports } from '../src/jobs/weekly-report.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { createEmailService } from '../src/services/mail.ts';
import { createTokenService } from '../src/services/tokens.ts';
import {
  addChild,
  addChildWithComputer,
  addComputerUser,
  addMacToken,
  deviceCall,
  inviteCoParent,
  type Parent,
  serverWithParents,
} from './fixtures.ts';

// Issue 23: the weekly report email: on by default, Sunday 18:00 in the family's time zone, once
// across instances (job_runs claim), per child the week's requests, activity to review, flagged
// items and security events, and one click to stop (RFC 8058 headers and a link).

const { server, alice, bob } = await serverWithParents();

const deps = {
  db: server.db,
  config: server.config,
  email: createEmailService(
    { send: async (mail) => void server.mails.push(mail) },
    server.config,
    server.clock,
  ),
  tokens: createTokenService(server.config),
  log: server.app.log,
};

const dashboard = (parent: Parent, op: string, input?: unknown) =>
  server.call(op, input, { token: parent.token });

// Sunday 29 November 2026, in New York (UTC-5): 17:30 and 18:30 local
const SUNDAY_BEFORE = new Date('2026-11-29T22:30:00.000Z');
const SUNDAY_EVENING = new Date('2026-11-29T23:30:00.000Z');

function reportsTo(email: string) {
  return server.mails.filter((mail) => mail.to === email && mail.template === 'weekly-report');
}

describe('the switch', () => {
  test('on by default; the owner turns it off and sets the time zone; a bad zone is refused', async () => {
    const parent = await server.signUpVerifiedParent();
    expect((await dashboard(parent, 'GetWeeklyReport')).body).toEqual({ isEnabled: true });
    const saved = await dashboard(parent, 'SaveWeeklyReport', {
      isEnabled: false,
      timeZone: 'America/New_York',
    });
    expect(saved.body).toEqual({ success: true });
    expect((await dashboard(parent, 'GetWeeklyReport')).body).toEqual({
      isEnabled: false,
      timeZone: 'America/New_York',
    });
    const bad = await dashboard(parent, 'SaveWeeklyReport', {
      isEnabled: true,
      timeZone: 'Mars/Base',
    });
    expect(bad.status).toBe(400);
    // another family's switch is its own
    expect((await dashboard(bob, 'GetWeeklyReport')).body.isEnabled).toBe(true);
  });

  test("a co-parent cannot stop the owner's report", async () => {
    const owner = await server.signUpVerifiedParent();
    const coParent = await inviteCoParent(server, owner);
    const refused = await dashboard(coParent, 'SaveWeeklyReport', { isEnabled: false });
    expect(refused.status).toBe(401);
    expect((await dashboard(owner, 'GetWeeklyReport')).body.isEnabled).toBe(true);
  });
});

describe('sending', () => {
  test('Sunday evening in the family time zone, once across instances, with the week per child', async () => {
    await dashboard(alice, 'SaveWeeklyReport', { isEnabled: true, timeZone: 'America/New_York' });
    const { childId, computerUserId } = await addChildWithComputer(server, alice.adminId, {
      name: 'Ada',
    });
    const token = await addMacToken(server, childId, computerUserId);
    server.clock.set(new Date(SUNDAY_EVENING.getTime() - 2 * DAY));
    await deviceCall(server, 'CreateUnlockRequests_v3', token, {
      blockedRequests: [{ bundleId: 'com.apple.Safari', url: 'https://example.com' }],
    });
    await deviceCall(server, 'CreateSuspendFilterRequest_v2', token, { duration: 600 });
    await notificationsDelivered();
    // issue 34: 95 minutes counted this week (and one 8 days ago, outside it)
    const minute = (i: number) =>
      new Date(SUNDAY_EVENING.getTime() - DAY - i * 60_000).toISOString();
    await server.db
      .insertInto('screen_time_minutes')
      .values(
        [...Array.from({ length: 95 }, (_, i) => i), 8 * 24 * 60].map((i) => ({
          computer_user_id: computerUserId,
          child_id: childId,
          minute: minute(i),
          site: 'a.example',
        })),
      )
      .execute();

    expect(localTime(SUNDAY_BEFORE, 'America/New_York')).toEqual({
      weekday: 'Sun',
      hour: 17,
      date: '2026-11-29',
    });
    await runWeeklyReports(deps, SUNDAY_BEFORE);
    expect(reportsTo(alice.email)).toEqual([]);

    // two instances run the same hour: one report
    await Promise.all([
      runWeeklyReports(deps, SUNDAY_EVENING),
      runWeeklyReports(deps, SUNDAY_EVENING),
    ]);
    await runWeeklyReports(deps, new Date(SUNDAY_EVENING.getTime() + HOUR));
    const reports = reportsTo(alice.email);
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report?.subject).toMatch(/^Your Keyward weekly report/);
    expect(report?.text).toContain(
      [
        'Ada:',
        '- 1 unlock request (1 still waiting for you)',
        '- 1 suspension request',
        '- 0 activity items to review',
        '- 0 flagged items',
        '- 0 security events',
        '- 1 hour 35 minutes of screen time',
      ].join('\n'),
    );
    const stop = /Stop the weekly report with one click: (\S+)/.exec(report?.text ?? '')?.[1];
    expect(stop).toMatch(/\/weekly-report\/unsubscribe\?family=/);
    expect(report?.headers).toEqual({
      'List-Unsubscribe': `<${stop}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    // a family on UTC gets its report in its own evening, not New York's
    expect(reportsTo(bob.email)).toHaveLength(1);
    // issue 32: the public catalogue's internal account (UTC, complimentary) gets nothing
    expect(server.mails.filter((mail) => mail.to.endsWith('.invalid'))).toEqual([]);
  });

  test('issue 32: alerts come first in the week, and the stop link is a short link in HTML', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId, {
      name: 'Zoe',
      keyloggingEnabled: true,
    });
    const { computerUserId } = await addComputerUser(server, parent.adminId, childId);
    const token = await addMacToken(server, childId, computerUserId);
    const sunday = new Date('2026-12-13T18:10:00.000Z');
    server.clock.set(new Date(sunday.getTime() - DAY));
    const typed = await deviceCall(server, 'CreateKeystrokeLines', token, [
      {
        appName: 'Notes',
        line: 'kill myself',
        time: toSwiftReferenceSeconds(new Date(sunday.getTime() - DAY - 1000)),
      },
    ]);
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    await notificationsDelivered();
    await runWeeklyReports(deps, sunday);
    const [report] = reportsTo(parent.email);
    expect(report?.text).toContain(
      ['Zoe:', '- 1 alert on what Zoe typed: look at these first', '- 0 unlock requests'].join(
        '\n',
      ),
    );
    expect(report?.html).toMatch(
      /<a href="[^"]+\/weekly-report\/unsubscribe[^"]+">Stop the weekly report with one click<\/a>/,
    );
    expect(report?.html).not.toMatch(/>https?:\/\/[^<]*weekly-report\/unsubscribe/);
  });

  test('one click stops it: the List-Unsubscribe POST, not a GET, and only with the genuine link', async () => {
    const parent = await server.signUpVerifiedParent();
    const sunday = new Date('2026-12-06T18:10:00.000Z');
    await runWeeklyReports(deps, sunday);
    const [report] = reportsTo(parent.email);
    const stop = new URL(report?.headers?.['List-Unsubscribe']?.slice(1, -1) ?? '');

    const page = await server.app.inject({ method: 'GET', url: `${stop.pathname}${stop.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop the weekly report');
    expect((await dashboard(parent, 'GetWeeklyReport')).body.isEnabled).toBe(true);

    const forged = await server.app.inject({
      method: 'POST',
      url: `${stop.pathname}?family=${parent.adminId}&signature=${'0'.repeat(64)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(forged.statusCode).toBe(403);
    const otherFamily = await server.app.inject({
      method: 'POST',
      url: `${stop.pathname}?family=${bob.adminId}&signature=${stop.searchParams.get('signature')}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(otherFamily.statusCode).toBe(403);
    const bobs = await server.db
      .selectFrom('parents')
      .select('weekly_report')
      .where('id', '=', bob.adminId)
      .executeTakeFirstOrThrow();
    expect(Boolean(bobs.weekly_report)).toBe(true);

    const oneClick = await server.app.inject({
      method: 'POST',
      url: `${stop.pathname}${stop.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode).toBe(200);
    expect(oneClick.body).toContain('Weekly report stopped');
    expect((await dashboard(parent, 'GetWeeklyReport')).body.isEnabled).toBe(false);

    await runWeeklyReports(deps, new Date(sunday.getTime() + 7 * DAY));
    expect(reportsTo(parent.email)).toHaveLength(1);
  });
});
