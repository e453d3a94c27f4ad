import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  DEV_LOGGED_OUT_KEY,
  getSession,
  logIn,
  logOut,
  parseTestCredential,
  readStartupSession,
  resetSessionCache,
} from '../src/lib/session';

afterEach(() => {
  vi.unstubAllEnvs();
  resetSessionCache();
});

const context = (overrides: Partial<Parameters<typeof readStartupSession>[0]> = {}) => ({
  local: localStorage,
  session: sessionStorage,
  pathname: '/',
  isProduction: false,
  isTest: false,
  testCredential: undefined,
  ...overrides,
});

describe('session startup', () => {
  test('reads local storage first', () => {
    localStorage.setItem('admin_id', 'local-id');
    localStorage.setItem('admin_token', 'local-token');
    sessionStorage.setItem('admin_id', 'session-id');
    sessionStorage.setItem('admin_token', 'session-token');
    expect(readStartupSession(context())).toEqual({ adminId: 'local-id', token: 'local-token' });
  });

  test('falls back to session storage', () => {
    sessionStorage.setItem('admin_id', 'session-id');
    sessionStorage.setItem('admin_token', 'session-token');
    expect(readStartupSession(context())).toEqual({
      adminId: 'session-id',
      token: 'session-token',
    });
  });

  test('nothing stored, no credential: logged out', () => {
    expect(readStartupSession(context())).toBeNull();
  });

  test('the test credential works in development outside /login and after no dev logout', () => {
    expect(readStartupSession(context({ testCredential: 'id-1:token-1' }))).toEqual({
      adminId: 'id-1',
      token: 'token-1',
    });
  });

  test.each([
    ['in production', { isProduction: true }],
    ['in automated tests', { isTest: true }],
    ['on /login', { pathname: '/login' }],
  ])('the test credential is ignored %s', (_, overrides) => {
    expect(
      readStartupSession(context({ testCredential: 'id-1:token-1', ...overrides })),
    ).toBeNull();
  });

  test('the test credential is ignored after a dev logout', () => {
    localStorage.setItem(DEV_LOGGED_OUT_KEY, 'true');
    expect(readStartupSession(context({ testCredential: 'id-1:token-1' }))).toBeNull();
  });

  test.each([
    ['a:b', { adminId: 'a', token: 'b' }],
    ['a', null],
    ['a:', null],
    ['a:b:c', null],
    [undefined, null],
  ])('parses test credential %s', (value, expected) => {
    expect(parseTestCredential(value)).toEqual(expected);
  });
});

describe('login and logout', () => {
  test('login stores id and token and clears the dev logout flag', () => {
    localStorage.setItem(DEV_LOGGED_OUT_KEY, 'true');
    logIn({ adminId: 'id-1', token: 'token-1' });
    expect(localStorage.getItem('admin_id')).toBe('id-1');
    expect(localStorage.getItem('admin_token')).toBe('token-1');
    expect(localStorage.getItem(DEV_LOGGED_OUT_KEY)).toBeNull();
    expect(getSession()).toEqual({ adminId: 'id-1', token: 'token-1' });
  });

  test('logout clears both storages and sets the dev flag outside production', () => {
    logIn({ adminId: 'id-1', token: 'token-1' });
    sessionStorage.setItem('admin_id', 'id-2');
    sessionStorage.setItem('admin_token', 'token-2');
    logOut();
    for (const storage of [localStorage, sessionStorage]) {
      expect(storage.getItem('admin_id')).toBeNull();
      expect(storage.getItem('admin_token')).toBeNull();
    }
    expect(localStorage.getItem(DEV_LOGGED_OUT_KEY)).toBe('true');
    expect(getSession()).toBeNull();
  });

  test('logout in production does not set the dev flag', () => {
    vi.stubEnv('PROD', true);
    logIn({ adminId: 'id-1', token: 'token-1' });
    logOut();
    expect(localStorage.getItem(DEV_LOGGED_OUT_KEY)).toBeNull();
  });

  test('getSession reads storage at startup', () => {
    sessionStorage.setItem('admin_id', 'id-9');
    sessionStorage.setItem('admin_token', 'token-9');
    resetSessionCache();
    expect(getSession()).toEqual({ adminId: 'id-9', token: 'token-9' });
  });
});
