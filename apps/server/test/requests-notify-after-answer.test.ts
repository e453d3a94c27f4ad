import { afterAll, describe, expect, test, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import type { OutgoingEmail } from '../src/services/mail.ts';
import { connectedMac, serverWithParents } from './fixtures.ts';

// §6.1: the parent is notified AFTER the child's device has its answer. A second instance of the
// app on the same database sends its email through a provider that holds every message until the
// test lets it go, like a provider taking 15 s: the Mac's request answers while the email is still
// held, the email goes out once released, and closing the app waits for it (graceful shutdown).
// Issue 19: the email waits for the end of the child's grouping window; closing the app (or
// notificationsDelivered) sends it at once.

const { server, alice } = await serverWithParents();

/** A mailer that keeps each message until `release()`. */
function heldMailer() {
  const sent: OutgoingEmail[] = [];
  let release!: () => void;
  let released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let waiting = 0;
  return {
    sent,
    waiting: () => waiting,
    release: () => release(),
    hold() {
      released = new Promise<void>((resolve) => {
        release = resolve;
      });
    },
    async send(email: OutgoingEmail) {
      waiting += 1;
      await released;
      waiting -= 1;
      sent.push(email);
    },
  };
}

const mailer = heldMailer();
const instance = await buildApp({
  config: server.config,
  db: server.db,
  clock: server.clock,
  mailer,
});
let closed = false;
afterAll(async () => {
  mailer.release();
  if (!closed) await instance.close();
});

function askToUnlock(token: string, hostname: string) {
  return instance.inject({
    method: 'POST',
    url: '/pairql/macos-app/CreateUnlockRequests_v3',
    headers: { 'content-type': 'application/json', 'x-usertoken': token },
    payload: JSON.stringify({ blockedRequests: [{ bundleId: 'com.apple.Safari', hostname }] }),
  });
}

describe('notifications after the answer', () => {
  test("the Mac's request answers while the provider still holds the parent's email", async () => {
    const mac = await connectedMac(server, alice.adminId);
    mailer.hold();
    const answer = await askToUnlock(mac.token, 'held.example.com');
    expect(answer.statusCode).toBe(200);
    // the request is stored and answered; its email waits for the window's end
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailer.waiting()).toBe(0);
    // the window ends: the email is with the provider, not sent yet
    server.clock.advance(server.config.notificationGroupSeconds * 1000 + 2000);
    await vi.waitFor(() => expect(mailer.waiting()).toBe(1), { timeout: 5000, interval: 5 });
    expect(mailer.sent).toEqual([]);

    mailer.release();
    await notificationsDelivered();
    expect(mailer.sent.map((mail) => [mail.to, mail.template])).toEqual([
      [alice.email, 'notify-unlock-request'],
    ]);
    expect(mailer.sent[0]!.text).toContain('held.example.com');
  });

  test('closing the app waits for the deliveries under way', async () => {
    const mac = await connectedMac(server, alice.adminId);
    mailer.hold();
    const before = mailer.sent.length;
    server.clock.advance(server.config.notificationGroupSeconds * 1000);
    expect((await askToUnlock(mac.token, 'shutdown.example.com')).statusCode).toBe(200);

    // closing sends the email still waiting for its window's end, and waits for its delivery
    let isClosed = false;
    const closing = instance.close().then(() => {
      isClosed = true;
    });
    closed = true;
    await vi.waitFor(() => expect(mailer.waiting()).toBe(1), { timeout: 5000, interval: 5 });
    // still open 300 ms later: the email is held
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(isClosed).toBe(false);
    mailer.release();
    await closing;
    expect(mailer.sent.slice(before).map((mail) => mail.template)).toEqual([
      'notify-unlock-request',
    ]);
  });
});
