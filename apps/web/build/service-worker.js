// Keyward's service worker (issue 23), written to dist/sw.js by build/pwa.ts, which fills in the
// version and the app shell's files. It keeps the hashed /assets/ files (immutable) for an instant
// start, answers a page visit without network with the offline page, and never caches anything
// else: the /pairql/ answers and every other request go to the network as if it were not here.
// It also shows the push notifications of the "This device" method and runs their actions.
const VERSION = '__VERSION__';
const SHELL = __SHELL__;
const CACHE = `keyward-shell-${VERSION}`;
const OFFLINE = '/offline.html';
// the offline page and what it shows, kept for when the network is gone
const OFFLINE_FILES = [OFFLINE, '/offline.js', '/icons/icon-192.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([...OFFLINE_FILES, ...SHELL]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys.filter((k) => k.startsWith('keyward-') && k !== CACHE).map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ||
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }
  if (OFFLINE_FILES.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname)));
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  }
});

// The messages and the decide call: packages/contract/src/push.ts (PushMessage, PushDecideInput,
// PushDecideOutput), which the server and its tests hold to.
self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (_) {
    message = { title: 'Keyward', body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || 'Keyward', {
      body: message.body || '',
      tag: message.tag,
      renotify: Boolean(message.tag),
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      actions: message.actions || [],
      data: message,
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  const message = event.notification.data || {};
  event.notification.close();
  if (event.action && message.actionToken) {
    event.waitUntil(decide(message, event.action));
    return;
  }
  event.waitUntil(openPage(message.url || '/'));
});

async function decide(message, action) {
  let words;
  try {
    const response = await fetch(message.decideUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: message.actionToken, action }),
    });
    const answer = await response.json().catch(() => ({}));
    words =
      answer.message || (response.ok ? 'Done.' : 'That did not work. Open Keyward to decide.');
  } catch (_) {
    words = 'No connection: the request was not decided. Open Keyward to decide.';
  }
  await self.registration.showNotification(message.title || 'Keyward', {
    body: words,
    tag: message.tag,
    icon: '/icons/icon-192.png',
    data: { url: message.url },
  });
}

async function openPage(path) {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window' });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (open) {
    // focusing needs the click's user activation; the page opens all the same
    await open.focus().catch(() => undefined);
    return open.navigate(target);
  }
  return self.clients.openWindow(target);
}
