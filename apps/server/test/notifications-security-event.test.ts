import { describe, expect, test } from 'vitest';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { connectedMac, deviceCall, newMac, serverWithParents } from './fixtures.ts';
import { accountEmailMethod, addRule } from './notifications-fixtures.ts';

// server-behaviour §4.3 / §6.1: LogSecurityEvent notifies `adminChildSecurityEvent` when the event is
// a known Mac event AND the macOS account is an administrator; security events have no fallback.

const { server, alice, bob } = await serverWithParents();

const adminMac = await connectedMac(server, alice.adminId, { mac: newMac({ isAdmin: true }) });
const plainMac = await connectedMac(server, alice.adminId, { mac: newMac({ isAdmin: false }) });
await addRule(
  server,
  alice.adminId,
  await accountEmailMethod(server, alice.adminId),
  'adminChildSecurityEvent',
);

const securityMails = () =>
  server.mails.filter((mail) => mail.template === 'notify-security-event');

describe('LogSecurityEvent notifications', () => {
  test('a known event of an admin account goes through the rule', async () => {
    const before = securityMails().length;
    const result = await deviceCall(server, 'LogSecurityEvent', adminMac.token, {
      deviceId: adminMac.computerUserId,
      event: 'systemExtensionStateChanged',
      detail: 'disabled',
    });
    expect(result.body).toEqual({ success: true });
    await notificationsDelivered();
    const mails = securityMails().slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(alice.email);
    expect(mails[0]!.subject).toMatch(/^Security event for child: Sam \[ref:/);
    expect(mails[0]!.text).toContain(
      'Received security event: "System extension state changed: disabled" for child Sam.',
    );
  });

  test('a non-admin account, or an unknown event name, notifies nobody (but is stored)', async () => {
    const before = securityMails().length;
    for (const [mac, event] of [
      [plainMac, 'appQuit'],
      [adminMac, 'somethingNew'],
    ] as const) {
      const result = await deviceCall(server, 'LogSecurityEvent', mac.token, {
        deviceId: mac.computerUserId,
        event,
      });
      expect(result.body).toEqual({ success: true });
    }
    await notificationsDelivered();
    expect(securityMails()).toHaveLength(before);
    const stored = await server.db
      .selectFrom('security_events')
      .select('event')
      .where('parent_id', '=', alice.adminId)
      .execute();
    expect(stored.map((row) => row.event)).toEqual(
      expect.arrayContaining(['appQuit', 'somethingNew']),
    );
  });

  test('a parent without rules gets no fallback for security events', async () => {
    const bobsAdminMac = await connectedMac(server, bob.adminId, {
      mac: newMac({ isAdmin: true }),
    });
    const before = server.mails.length;
    const result = await deviceCall(server, 'LogSecurityEvent', bobsAdminMac.token, {
      deviceId: bobsAdminMac.computerUserId,
      event: 'appQuit',
    });
    expect(result.body).toEqual({ success: true });
    await notificationsDelivered();
    expect(server.mails.slice(before)).toEqual([]);
  });
});
