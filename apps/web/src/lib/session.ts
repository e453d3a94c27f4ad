import { isProductionBuild, isTestMode, testCredential } from './env';

export type AdminSession = { adminId: string; token: string };

export const ADMIN_ID_KEY = 'admin_id';
export const ADMIN_TOKEN_KEY = 'admin_token';
export const DEV_LOGGED_OUT_KEY = 'dev_logged_out';

type StartupContext = {
  local: Storage;
  session: Storage;
  pathname: string;
  isProduction: boolean;
  isTest: boolean;
  testCredential: string | undefined;
};

function readFrom(storage: Storage): AdminSession | null {
  const adminId = storage.getItem(ADMIN_ID_KEY);
  const token = storage.getItem(ADMIN_TOKEN_KEY);
  return adminId && token ? { adminId, token } : null;
}

export function parseTestCredential(value: string | undefined): AdminSession | null {
  if (!value) return null;
  const [adminId, token, ...rest] = value.split(':');
  if (!adminId || !token || rest.length > 0) return null;
  return { adminId, token };
}

/** Spec §4 Session: local storage first, then session storage, then (dev only) the test credential. */
export function readStartupSession(ctx: StartupContext): AdminSession | null {
  const stored = readFrom(ctx.local) ?? readFrom(ctx.session);
  if (stored) return stored;
  const mayUseTestCredential =
    !ctx.isProduction &&
    !ctx.isTest &&
    ctx.pathname !== '/login' &&
    ctx.local.getItem(DEV_LOGGED_OUT_KEY) === null;
  return mayUseTestCredential ? parseTestCredential(ctx.testCredential) : null;
}

// A tiny external store so the API client and React share one session.
let current: AdminSession | null | undefined;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function getSession(): AdminSession | null {
  // issue 30: the public pages are rendered at build time, as a visitor without a session
  if (typeof window === 'undefined') return null;
  if (current === undefined) {
    current = readStartupSession({
      local: window.localStorage,
      session: window.sessionStorage,
      pathname: window.location.pathname,
      isProduction: isProductionBuild(),
      isTest: isTestMode(),
      testCredential: testCredential(),
    });
  }
  return current;
}

export function subscribeToSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function logIn(session: AdminSession): void {
  localStorage.setItem(ADMIN_ID_KEY, session.adminId);
  localStorage.setItem(ADMIN_TOKEN_KEY, session.token);
  localStorage.removeItem(DEV_LOGGED_OUT_KEY);
  current = session;
  notify();
}

export function logOut(): void {
  for (const storage of [localStorage, sessionStorage]) {
    storage.removeItem(ADMIN_ID_KEY);
    storage.removeItem(ADMIN_TOKEN_KEY);
  }
  if (!isProductionBuild()) localStorage.setItem(DEV_LOGGED_OUT_KEY, 'true');
  current = null;
  notify();
}

/** Forget the in-memory copy so the next read starts over from storage (tests, storage events). */
export function resetSessionCache(): void {
  current = undefined;
  notify();
}
