import { firstScreenReady, pageRender } from './app/first-screen';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { shouldHydrate } from './app/hydration';
import { getSession } from './lib/session';
import { keepSessionCookie } from './lib/session-cookie';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const app = (
  <StrictMode>
    <App firstRender={pageRender} />
  </StrictMode>
);

void firstScreenReady.then(() => {
  // issue 30: the HTML in #root is this page's first render: a public page rendered at build time
  // (scripts/prerender.ts), or this signed-in page rendered by the server with its first reads
  // (src/entry-server.tsx); React takes it over instead of rendering anew
  if (pageRender || shouldHydrate(root, window.location, getSession())) {
    hydrateRoot(root, app, {
      onRecoverableError(error) {
        console.error("Keyward: the page's HTML did not match its first render", error);
      },
    });
  } else {
    createRoot(root).render(app);
  }
  keepSessionCookie({ isRendered: pageRender !== null });
});

// issue 23: the service worker (build/pwa.ts), once the page has loaded: off the first screen's path
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
