import { firstScreenReady } from './app/first-screen';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/App';
import { shouldHydrate } from './app/hydration';
import { getSession } from './lib/session';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

void firstScreenReady.then(() => {
  // issue 30: a public page's HTML came prerendered with the page (scripts/prerender.mjs)
  if (shouldHydrate(root, window.location, getSession())) {
    hydrateRoot(root, app, {
      onRecoverableError(error) {
        console.error('Keyward: the prerendered page did not match its first render', error);
      },
    });
  } else {
    createRoot(root).render(app);
  }
});

// issue 23: the service worker (build/pwa.ts), once the page has loaded: off the first screen's path
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  });
}
