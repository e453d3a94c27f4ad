import type { AdminNotificationTrigger } from '@keyward/contract/shared';
import type { PushSubscriptionSummary } from '@keyward/contract/dashboard';
import { BellIcon } from '@heroicons/react/24/outline';
import { useEffect, useReducer, useState } from 'react';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { DeleteModal } from '../../components/ui/DeleteModal';
import { errorMessage, toPqlError } from '../../lib/errors';
import { newId } from '../../lib/new-id';
import { useDeletePushSubscription, usePushSubscriptions, useSavePushSubscription } from './api';
import { TRIGGER_LABELS } from './notification-cards';
import {
  base64UrlToBytes,
  browserLabel,
  initialPushMethod,
  isPushSupported,
  pushMethodReducer,
} from './push-method';

const SERVICE_WORKER_WAIT_MS = 10_000;

/** This browser's push subscription, when it has one (undefined without push support). */
async function currentSubscription(): Promise<PushSubscription | null> {
  if (!isPushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

async function readyServiceWorker(): Promise<ServiceWorkerRegistration> {
  return Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error('The app is still starting up. Reload the page and try again.')),
        SERVICE_WORKER_WAIT_MS,
      ),
    ),
  ]);
}

/**
 * Issue 23: the "This device" method, inside Settings' notification methods: turn push
 * notifications on in this browser (the browser asks for permission), see every device that
 * has them on, remove one.
 */
export function ThisDeviceSection({ hasAdminChild }: { hasAdminChild: boolean }) {
  const subscriptions = usePushSubscriptions();
  const save = useSavePushSubscription();
  const remove = useDeletePushSubscription();
  const [state, dispatch] = useReducer(pushMethodReducer, initialPushMethod);
  const [ownEndpoint, setOwnEndpoint] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<PushSubscriptionSummary | null>(null);
  const isSupported = isPushSupported();

  useEffect(() => {
    void currentSubscription()
      .then((subscription) => setOwnEndpoint(subscription?.endpoint ?? null))
      .catch(() => setOwnEndpoint(null));
  }, []);

  const list = subscriptions.data?.subscriptions ?? [];
  const isThisDeviceOn = ownEndpoint !== null && list.some((s) => s.endpoint === ownEndpoint);
  const choices: AdminNotificationTrigger[] = [
    'unlockRequestSubmitted',
    'suspendFilterRequestSubmitted',
    ...(hasAdminChild ? (['adminChildSecurityEvent'] as const) : []),
  ];

  async function turnOn() {
    const vapidPublicKey = subscriptions.data?.vapidPublicKey;
    if (!vapidPublicKey) return;
    dispatch({ type: 'turnOnClicked' });
    const permission = await Notification.requestPermission();
    dispatch({ type: 'permissionAnswered', permission });
    if (permission !== 'granted') return;
    try {
      const registration = await readyServiceWorker();
      const subscription =
        (await registration.pushManager.getSubscription()) ??
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: base64UrlToBytes(vapidPublicKey),
        }));
      const json = subscription.toJSON();
      await save.mutateAsync({
        id: newId(),
        endpoint: subscription.endpoint,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
        label: browserLabel(navigator.userAgent),
        triggers: state.triggers,
      });
      setOwnEndpoint(subscription.endpoint);
      dispatch({ type: 'saved' });
    } catch (error) {
      const message =
        error instanceof Error && !('type' in error)
          ? error.message
          : errorMessage(toPqlError(error));
      dispatch({
        type: 'failed',
        message: `Push notifications could not be turned on. ${message}`,
      });
    }
  }

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await remove.mutateAsync({ id: toDelete.id });
      if (toDelete.endpoint === ownEndpoint) {
        await (await currentSubscription())?.unsubscribe();
        setOwnEndpoint(null);
      }
    } catch {
      // the error toast has told the parent
    }
    setToDelete(null);
  }

  const isBusy = state.phase === 'asking' || state.phase === 'saving';
  return (
    <section aria-labelledby="this-device-heading" className="mt-4 border-t border-slate-100 pt-4">
      <h3 id="this-device-heading" className="text-sm font-semibold text-slate-900">
        This device (push notifications)
      </h3>
      <p className="text-sm text-slate-500">
        Get a notification on this phone or computer, and decide suspension requests from it.
      </p>
      {list.length > 0 && (
        <ul className="mt-2 divide-y divide-slate-100">
          {list.map((subscription) => (
            <li
              key={subscription.id}
              aria-label={`Push: ${subscription.label}`}
              className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3"
            >
              <BellIcon className="h-5 w-5 shrink-0 text-violet-600" aria-hidden="true" />
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-slate-900">
                  {subscription.label}
                </span>
                <span className="block text-xs text-slate-500">
                  {subscription.triggers.length === 0
                    ? 'Sends nothing'
                    : subscription.triggers.map((t) => TRIGGER_LABELS[t]).join(', ')}
                </span>
              </span>
              {subscription.endpoint === ownEndpoint && <Badge>This device</Badge>}
              <Button
                variant="dangerGhost"
                size="sm"
                onClick={() => setToDelete(subscription)}
                aria-label={`Remove ${subscription.label}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {!isSupported ? (
        <p className="mt-2 text-sm text-slate-500">
          This browser can't receive push notifications. On an iPhone or iPad, add Keyward to the
          Home Screen first (Share, then Add to Home Screen) and open it from there.
        </p>
      ) : isThisDeviceOn ? null : (
        <div className="mt-3">
          <fieldset>
            <legend className="text-sm text-slate-700">Send to this device:</legend>
            <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              {choices.map((trigger) => (
                <label key={trigger} className="flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    className="h-4 w-4 rounded border-slate-300 text-violet-600"
                    checked={state.triggers.includes(trigger)}
                    disabled={isBusy}
                    onChange={() => dispatch({ type: 'triggerToggled', trigger })}
                  />
                  {TRIGGER_LABELS[trigger]}
                </label>
              ))}
            </div>
          </fieldset>
          <Button
            className="mt-3"
            size="sm"
            onClick={() => void turnOn()}
            disabled={isBusy || state.triggers.length === 0 || !subscriptions.data}
          >
            {state.phase === 'asking'
              ? 'Waiting for your answer...'
              : state.phase === 'saving'
                ? 'Turning on...'
                : 'Turn on notifications on this device'}
          </Button>
          {state.phase === 'denied' && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              Notifications are blocked for Keyward in this browser. Allow them in the browser's
              site settings, then try again.
            </p>
          )}
          {state.phase === 'failed' && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {state.message}
            </p>
          )}
        </div>
      )}
      <DeleteModal
        isOpen={toDelete !== null}
        type="notification method"
        isDeleting={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
