import type { AdminNotificationTrigger } from '@keyward/contract/shared';

// Issue 23: turning on "This device" (push notifications in this browser). A reducer with named
// events, tested without rendering: choose what to send, ask the browser's permission, subscribe
// and save. What is already on comes from the server (GetPushSubscriptions), not from here.

export type PushMethodState =
  | { phase: 'choosing'; triggers: AdminNotificationTrigger[] }
  | { phase: 'asking'; triggers: AdminNotificationTrigger[] }
  | { phase: 'saving'; triggers: AdminNotificationTrigger[] }
  | { phase: 'denied'; triggers: AdminNotificationTrigger[] }
  | { phase: 'failed'; triggers: AdminNotificationTrigger[]; message: string };

export type PushMethodEvent =
  | { type: 'triggerToggled'; trigger: AdminNotificationTrigger }
  | { type: 'turnOnClicked' }
  | { type: 'permissionAnswered'; permission: NotificationPermission }
  | { type: 'saved' }
  | { type: 'failed'; message: string };

export const DEFAULT_PUSH_TRIGGERS: AdminNotificationTrigger[] = [
  'unlockRequestSubmitted',
  'suspendFilterRequestSubmitted',
];

export const initialPushMethod: PushMethodState = {
  phase: 'choosing',
  triggers: DEFAULT_PUSH_TRIGGERS,
};

export function pushMethodReducer(state: PushMethodState, event: PushMethodEvent): PushMethodState {
  const { triggers } = state;
  switch (event.type) {
    case 'triggerToggled': {
      if (state.phase === 'asking' || state.phase === 'saving') return state;
      const next = triggers.includes(event.trigger)
        ? triggers.filter((t) => t !== event.trigger)
        : [...triggers, event.trigger];
      return { phase: 'choosing', triggers: next };
    }
    case 'turnOnClicked':
      if (state.phase === 'asking' || state.phase === 'saving' || triggers.length === 0) {
        return state;
      }
      return { phase: 'asking', triggers };
    case 'permissionAnswered':
      if (state.phase !== 'asking') return state;
      return event.permission === 'granted'
        ? { phase: 'saving', triggers }
        : { phase: 'denied', triggers };
    case 'saved':
      return state.phase === 'saving' ? { phase: 'choosing', triggers } : state;
    case 'failed':
      return { phase: 'failed', triggers, message: event.message };
  }
}

/** Whether this browser can receive push notifications at all. */
export function isPushSupported(scope: typeof globalThis = globalThis): boolean {
  return (
    'Notification' in scope && 'PushManager' in scope && 'serviceWorker' in (scope.navigator ?? {})
  );
}

/** The VAPID key as the browser's applicationServerKey wants it. */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** "Chrome on Android": how the parent recognises this device in the list. */
export function browserLabel(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\/|FxiOS/.test(userAgent)
      ? 'Firefox'
      : /SamsungBrowser/.test(userAgent)
        ? 'Samsung Internet'
        : /Chrome\/|CriOS/.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone/.test(userAgent)
      ? 'iPhone'
      : /iPad/.test(userAgent)
        ? 'iPad'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'Mac'
          : /Windows/.test(userAgent)
            ? 'Windows'
            : /CrOS/.test(userAgent)
              ? 'ChromeOS'
              : /Linux/.test(userAgent)
                ? 'Linux'
                : undefined;
  return system ? `${browser} on ${system}` : browser;
}
