import type { GetAdminOutput } from '@keyward/contract/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ADMIN_ID, fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

// Issue 23: Settings' "This device" method. jsdom has no push: the supported path stubs the
// browser's Notification, PushManager and service worker, and checks what is sent to the server.

const toast = vi.hoisted(() => ({ loading: vi.fn(), success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const PHONE = 'b0000000-0000-4000-8000-000000000001';
const ENDPOINT = 'https://push.example.com/send/this-browser';
const VAPID =
  'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM';

const admin: GetAdminOutput = {
  id: ADMIN_ID,
  email: 'parent@example.com',
  subscriptionStatus: { case: 'paid' },
  notifications: [],
  verifiedNotificationMethods: [],
  hasAdminChild: false,
  monthlyPriceInDollars: 15,
};

type Subscription = {
  id: string;
  label: string;
  endpoint: string;
  triggers: string[];
  createdAt: string;
};

function server(initial: Subscription[]) {
  let subscriptions = initial;
  const calls = fakeServer((op, body) => {
    switch (op) {
      case 'GetAdmin':
        return { body: admin };
      case 'GetPushSubscriptions':
        return { body: { vapidPublicKey: VAPID, subscriptions } };
      case 'SavePushSubscription': {
        const saved = body as { id: string; endpoint: string; label: string; triggers: string[] };
        subscriptions = [...subscriptions, { ...saved, createdAt: '2026-11-26T10:00:00.000Z' }];
        return { body: { id: saved.id } };
      }
      case 'DeletePushSubscription': {
        const { id } = body as { id: string };
        subscriptions = subscriptions.filter((s) => s.id !== id);
        return { body: { success: true } };
      }
      default:
        return serverError('notFound');
    }
  });
  return calls;
}

/** A browser with push: permission `answer`, and a service worker whose subscribe() works. */
function stubPushBrowser(answer: NotificationPermission) {
  let current: { endpoint: string; toJSON(): object; unsubscribe(): Promise<boolean> } | null =
    null;
  const subscribe = vi.fn(async () => {
    current = {
      endpoint: ENDPOINT,
      toJSON: () => ({
        endpoint: ENDPOINT,
        keys: { p256dh: VAPID, auth: 'tBHItJI5svbpez7KI4CCXg' },
      }),
      unsubscribe: async () => true,
    };
    return current;
  });
  const registration = {
    pushManager: { subscribe, getSubscription: async () => current },
  };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', { requestPermission: vi.fn(async () => answer) });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve(registration), getRegistration: async () => registration },
  });
  return { subscribe };
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('"This device" in Settings', () => {
  test('lists the devices with push on, and removes one', async () => {
    const calls = server([
      {
        id: PHONE,
        label: 'Chrome on Android',
        endpoint: 'https://push.example.com/send/phone',
        triggers: ['unlockRequestSubmitted', 'suspendFilterRequestSubmitted'],
        createdAt: '2026-11-25T10:00:00.000Z',
      },
    ]);
    const user = userEvent.setup();
    renderApp('/settings');
    const phone = await screen.findByRole('listitem', { name: 'Push: Chrome on Android' });
    expect(within(phone).getByText('Unlock requests, Suspension requests')).toBeInTheDocument();
    // jsdom cannot receive push: it says so, honestly
    expect(screen.getByText(/This browser can't receive push notifications/)).toBeInTheDocument();

    await user.click(within(phone).getByRole('button', { name: 'Remove Chrome on Android' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.op === 'DeletePushSubscription')).toEqual([
        expect.objectContaining({ body: { id: PHONE } }),
      ]),
    );
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Push: Chrome on Android' })).toBeNull(),
    );
  });

  test('turning on asks permission, subscribes with the VAPID key and saves the subscription', async () => {
    const { subscribe } = stubPushBrowser('granted');
    const calls = server([]);
    const user = userEvent.setup();
    renderApp('/settings');
    const turnOn = await screen.findByRole('button', {
      name: 'Turn on notifications on this device',
    });
    await waitFor(() => expect(turnOn).toBeEnabled());
    await user.click(screen.getByRole('checkbox', { name: 'Unlock requests' }));
    await user.click(turnOn);

    await waitFor(() =>
      expect(calls.filter((c) => c.op === 'SavePushSubscription')).toHaveLength(1),
    );
    const [options] = subscribe.mock.calls[0] as unknown as [
      { userVisibleOnly: boolean; applicationServerKey: Uint8Array },
    ];
    expect(options.userVisibleOnly).toBe(true);
    expect(options.applicationServerKey).toHaveLength(65);
    expect(calls.find((c) => c.op === 'SavePushSubscription')?.body).toEqual({
      id: expect.any(String),
      endpoint: ENDPOINT,
      keys: { p256dh: VAPID, auth: 'tBHItJI5svbpez7KI4CCXg' },
      label: expect.any(String),
      triggers: ['suspendFilterRequestSubmitted'],
    });
    const listed = await screen.findByRole('listitem', { name: /^Push: / });
    expect(within(listed).getByText('This device')).toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: 'Turn on notifications on this device' }),
    ).toBeNull();
  });

  test('a blocked permission says what to do and saves nothing', async () => {
    stubPushBrowser('denied');
    const calls = server([]);
    const user = userEvent.setup();
    renderApp('/settings');
    const turnOn = await screen.findByRole('button', {
      name: 'Turn on notifications on this device',
    });
    await waitFor(() => expect(turnOn).toBeEnabled());
    await user.click(turnOn);
    expect(
      await screen.findByText(/Notifications are blocked for Keyward in this browser/),
    ).toHaveAttribute('role', 'alert');
    expect(calls.filter((c) => c.op === 'SavePushSubscription')).toEqual([]);
  });
});
