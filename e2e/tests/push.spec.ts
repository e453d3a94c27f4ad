import type { BrowserContext } from '@playwright/test';
import {
  type FakePushService,
  startFakePushService,
} from '../../apps/server/test/fakes/push-service.ts';
import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, connectSimulatedMac } from '../support/children.ts';
import { type OnlineMac, SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';
import { dashboardCall } from '../support/dashboard-call.ts';

// Issue 23: the dashboard as an app on a parent's phone. Install criteria (manifest, icons, a
// service worker controlling the page, the offline page), then push: the server encrypts a
// suspension request's notification for a subscription, the service worker shows it, and its
// "Deny" decides the request, which the Mac (device-sim) hears at once.
//
// Gaps of headless Chromium, said plainly: it has no reachable push service here (a real
// `pushManager.subscribe` needs Google's, and this machine has no internet), so the server pushes to
// a synthetic subscription held by a local fake push service (apps/server/test/fakes), which
// verifies the VAPID signature and decrypts the payload; that payload is then delivered to the
// real service worker through CDP (ServiceWorker.deliverPushMessage). And no one can tap a
// notification's button in headless Chromium: the test dispatches the `notificationclick` event
// with action "deny" in the service worker itself, on the notification it showed.

// the other specs keep service workers out of their way (playwright.config.ts)
test.use({ serviceWorkers: 'allow' });

let mac: SimulatedMac | undefined;
let online: OnlineMac | undefined;
let pushService: FakePushService | undefined;

test.afterEach(async () => {
  await online?.stop();
  online = undefined;
  mac?.dispose();
  mac = undefined;
  await pushService?.close();
  pushService = undefined;
});

/** Width and height from a PNG's IHDR. */
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

test('installable: manifest, icons, a service worker in control, and an honest offline page', async ({
  page,
  context,
  request,
}) => {
  await page.goto('/login');
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBe('/manifest.webmanifest');
  const manifestResponse = await request.get(manifestHref ?? '');
  expect(manifestResponse.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = await manifestResponse.json();
  expect(manifest).toMatchObject({
    name: 'Keyward',
    display: 'standalone',
    start_url: '/',
    theme_color: '#7c3aed',
  });
  const sizes = new Map<string, string>();
  for (const icon of manifest.icons as { src: string; sizes: string; purpose: string }[]) {
    const response = await request.get(icon.src);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()['content-type']).toBe('image/png');
    expect(pngSize(await response.body()).join('x')).toBe(icon.sizes);
    sizes.set(`${icon.sizes} ${icon.purpose}`, icon.src);
  }
  expect([...sizes.keys()].sort()).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);

  // registered after load, active, and in control after a reload
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null))
    .toMatch(/\/sw\.js$/);
  const worker = await request.get('/sw.js');
  expect(worker.headers()['cache-control']).toBe('no-cache');

  // the network gone: the app's page says so instead of the browser's error
  await context.setOffline(true);
  await page.goto('/children').catch(() => undefined);
  await expect(page.getByRole('heading', { name: "You're offline" })).toBeVisible();
  // its icon comes from the service worker's cache too
  await expect
    .poll(() => page.evaluate(() => document.querySelector('img')?.naturalWidth ?? 0))
    .toBe(192);
  // back online, the offline page reloads by itself into the app (or at its "Try again")
  await context.setOffline(false);
  const offline = page.getByRole('heading', { name: "You're offline" });
  await expect
    .poll(
      async () => {
        if (await offline.isVisible().catch(() => false)) {
          await page
            .getByRole('link', { name: 'Try again' })
            .click({ timeout: 1000 })
            .catch(() => undefined);
        }
        return offline.isVisible().catch(() => true);
      },
      { intervals: [2000, 2000, 3000], timeout: 20_000 },
    )
    .toBe(false);
  await expect(page).toHaveURL(/\/(children|login)/);
});

test('push: a suspension request shows on the phone, and its "Deny" decides it for the Mac', async ({
  page,
  context,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const parent = await signInAsNewParent(page, request, mailbox, 'push');
  const childName = `Noa ${Date.now().toString(36)}`;
  await addChildInBrowser(page, childName);
  mac = new SimulatedMac(baseURL);
  await connectSimulatedMac(page, mac);
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();
  online = mac.online();
  await online.waitForLine(/^online: /);

  // Settings: the browser's own attempt, with the permission granted
  await page.goto('/settings');
  const turnOn = page.getByRole('button', { name: 'Turn on notifications on this device' });
  await expect(turnOn).toBeEnabled();
  await turnOn.click();
  const outcome = await Promise.race([
    page
      .getByRole('listitem', { name: /^Push: / })
      .waitFor({ timeout: 20_000 })
      .then(() => 'subscribed' as const),
    page
      .getByText(/Push notifications could not be turned on/)
      .waitFor({ timeout: 20_000 })
      .then(() => 'no push service' as const),
  ]);
  test.info().annotations.push({ type: 'pushManager.subscribe', description: outcome });
  if (outcome === 'subscribed') {
    await dashboardCall(page, request, 'DeletePushSubscription', {
      id: (await dashboardCall(page, request, 'GetPushSubscriptions')).subscriptions[0].id,
    });
  }

  // a synthetic subscription at the local fake push service stands for this browser's
  pushService = await startFakePushService();
  const subscription = pushService.subscribe();
  await dashboardCall(page, request, 'SavePushSubscription', {
    id: crypto.randomUUID(),
    ...subscription,
    label: 'Headless Chromium',
    triggers: ['suspendFilterRequestSubmitted', 'unlockRequestSubmitted'],
  });
  await page.reload();
  await expect(page.getByRole('listitem', { name: 'Push: Headless Chromium' })).toBeVisible();
  await expect(
    page
      .getByRole('listitem', { name: 'Push: Headless Chromium' })
      .getByText('Suspension requests, Unlock requests'),
  ).toBeVisible();

  // the child asks; the server's push reaches the push service, VAPID-signed and encrypted
  expect(await mac.ok(['suspend', '10', '--comment', 'piano tutorial'])).toMatch(/10 minutes/);
  await expect.poll(() => pushService?.received.length, { timeout: 20_000 }).toBe(1);
  expect(pushService.refused).toEqual([]);
  const payload = pushService.received[0]?.payload;
  expect(payload).toMatchObject({
    title: `Suspension request from ${childName}`,
    actions: [
      { action: 'allow15', title: 'Allow 15 minutes' },
      { action: 'deny', title: 'Deny' },
    ],
  });

  // delivered to the page's service worker as the push service would
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find(
        (r) => !r.isDeleted && new URL(r.scopeURL).origin === baseURL,
      );
      if (ours) resolve(ours.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const deliver = async () =>
    cdp.send('ServiceWorker.deliverPushMessage', {
      origin: baseURL,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    });
  const shown = async () =>
    page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        // `actions` is Chromium's, not in TypeScript's DOM types
        actions: (n as unknown as { actions: { title: string }[] }).actions.map((a) => a.title),
      }));
    });
  // a message that arrives while the worker is starting can be dropped by headless Chromium:
  // delivered again until it shows (same tag: a repeat replaces, never adds)
  await expect
    .poll(
      async () => {
        if ((await shown()).length === 0) await deliver();
        return (await shown()).length;
      },
      { intervals: [500, 1000, 2000], timeout: 20_000 },
    )
    .toBe(1);
  await expect.poll(shown).toEqual([
    {
      title: `Suspension request from ${childName}`,
      body: `${childName} asks to turn the filter off for 10 minutes. "piano tutorial"`,
      tag: payload.tag,
      actions: ['Allow 15 minutes', 'Deny'],
    },
  ]);

  // "Deny", as the notification's button would: the service worker's own click handler runs
  await clickNotification(context, 'deny');
  await online.waitForLine(/suspension request rejected/);
  // the tapped notification is replaced by the answer
  await expect
    .poll(async () => (await shown()).map((n) => n.body))
    .toEqual(['Denied. Your child has been told.']);
  expect(parent.email).toContain('@');

  // an unlock request's notification opens that request's page
  await mac.ok(['unlock', 'chess.com', '--comment', 'club practice']);
  await expect.poll(() => pushService?.received.length, { timeout: 20_000 }).toBe(2);
  const unlock = pushService.received[1]?.payload;
  expect(unlock).toMatchObject({ title: `Unlock request from ${childName}` });
  expect(unlock.url).toMatch(/^\/children\/[0-9a-f-]{36}\/unlock-requests\/[0-9a-f-]{36}$/);
  await expect
    .poll(
      async () => {
        const titles = (await shown()).map((n) => n.title);
        if (!titles.includes(unlock.title)) {
          await cdp.send('ServiceWorker.deliverPushMessage', {
            origin: baseURL,
            registrationId: await registrationId,
            data: JSON.stringify(unlock),
          });
        }
        return (await shown()).map((n) => n.title);
      },
      { intervals: [500, 1000, 2000], timeout: 20_000 },
    )
    .toContain(unlock.title);
  await clickNotification(context, '', unlock.tag);
  // the request's page, which opens on its review step
  await expect(page).toHaveURL(new RegExp(`${unlock.url}(/review)?$`));
  await expect(page.getByText('chess.com').first()).toBeVisible();
});

/**
 * A tap on the shown notification with `tag` (or the first), on its button `action` ('' = the
 * notification itself): headless Chromium cannot tap, so the worker's own notificationclick
 * handler runs on a dispatched event.
 */
async function clickNotification(context: BrowserContext, action: string, tag?: string) {
  const [serviceWorker] = context.serviceWorkers();
  if (!serviceWorker) throw new Error('no service worker');
  await serviceWorker.evaluate(
    async ({ action, tag }) => {
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent(event: Event): boolean;
        NotificationEvent: new (
          type: string,
          init: { notification: Notification; action: string },
        ) => Event;
      };
      const notifications = await scope.registration.getNotifications(tag ? { tag } : undefined);
      const [notification] = notifications;
      if (!notification) throw new Error(`no notification ${tag ?? ''}`);
      try {
        scope.dispatchEvent(
          new scope.NotificationEvent('notificationclick', { notification, action }),
        );
      } catch {
        // an event not sent by the browser may not extend its lifetime; the handler has run
      }
    },
    { action, tag },
  );
}
