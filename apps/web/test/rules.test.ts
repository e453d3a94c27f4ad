import { CLIENT_ERROR_IDS } from '@keyward/contract/constants';
import type { PqlError } from '@keyward/contract/errors';
import { describe, expect, test } from 'vitest';
import { isSidebarLinkActive, sidebarLinks, sidebarLinksFor } from '../src/app/sidebar-links';
import { isMobileWidth } from '../src/lib/useIsMobile';
import { keepsLastAnswer } from '../src/lib/api/hooks';
import { queryRetryDelay, shouldRetryQuery } from '../src/lib/api/retry';
import {
  errorMessage,
  errorTitle,
  GENERIC_ERROR_MESSAGE,
  logoutPath,
  toPqlError,
} from '../src/lib/errors';
import { safeRedirectPath } from '../src/lib/redirect';
import { mutationToastText, pastParticiple, presentParticiple } from '../src/lib/toast-wording';

const error = (fields: Partial<PqlError>): PqlError => ({
  isPqlError: true,
  id: 'abcdef12',
  type: 'serverError',
  debugMessage: 'debug',
  ...fields,
});

describe('error display rules (spec §8)', () => {
  test.each([
    [error({ userMessage: 'Incorrect email or password' }), 'Incorrect email or password'],
    [error({ type: 'notFound', entityName: 'Child', userMessage: 'Custom' }), 'Custom'],
    [error({ type: 'notFound', entityName: 'Keychain' }), 'Keychain not found.'],
    [error({ type: 'notFound' }), 'Not found.'],
    // The server's table names become product words in the one mapping of lib/errors.ts.
    [error({ type: 'notFound', entityName: 'ComputerUser' }), 'Computer connection not found.'],
    [
      error({ type: 'notFound', entityName: 'NotificationMethod' }),
      'Notification method not found.',
    ],
    [error({ type: 'notFound', entityName: 'Parent' }), 'Account not found.'],
    [error({ type: 'notFound', entityName: 'Computer' }), 'Computer not found.'],
    [error({ type: 'badRequest' }), GENERIC_ERROR_MESSAGE],
    [error({ type: 'clientError', id: '59b169c4' }), GENERIC_ERROR_MESSAGE],
  ])('message %#', (input, expected) => {
    expect(errorMessage(input)).toBe(expected);
  });

  test('title', () => {
    expect(errorTitle(error({ type: 'notFound' }))).toBe('Not found');
    expect(errorTitle(error({ type: 'unauthorized' }))).toBe('Error');
  });

  test('non-API exceptions are wrapped, PqlErrors pass through', () => {
    expect(toPqlError(new Error('boom'))).toEqual({
      isPqlError: true,
      id: '59b169c4',
      type: 'clientError',
      debugMessage: 'Unexpected error: boom',
      showContactSupport: true,
    });
    const original = error({ type: 'loggedOut' });
    expect(toPqlError(original)).toBe(original);
  });

  test.each([
    ['/', '', '/logout'],
    ['/children', '', '/logout?redirect=%2Fchildren'],
    ['/children/abc/activity', '?x=1', '/logout?redirect=%2Fchildren%2Fabc%2Factivity%3Fx%3D1'],
  ])('loggedOut from %s%s goes to %s', (pathname, search, expected) => {
    expect(logoutPath(pathname, search)).toBe(expected);
  });
});

describe('redirect after login', () => {
  test.each([
    [null, '/'],
    ['/children?tab=1', '/children?tab=1'],
    ['https://evil.example', '/'],
    ['//evil.example', '/'],
    ['/logout', '/'],
    ['/login?redirect=/x', '/'],
    ['/logouts-are-fine', '/logouts-are-fine'],
  ])('%s → %s', (input, expected) => {
    expect(safeRedirectPath(input)).toBe(expected);
  });
});

describe('toast wording', () => {
  test.each([
    ['save', 'saving', 'saved'],
    ['delete', 'deleting', 'deleted'],
    ['create', 'creating', 'created'],
    ['add', 'adding', 'added'],
    ['update', 'updating', 'updated'],
    ['send', 'sending', 'sent'],
    ['flag', 'flagging', 'flagged'],
    ['deny', 'denying', 'denied'],
    ['accept', 'accepting', 'accepted'],
  ])('%s → %s / %s', (verb, ing, past) => {
    expect(presentParticiple(verb)).toBe(ing);
    expect(pastParticiple(verb)).toBe(past);
  });

  test('messages', () => {
    expect(mutationToastText({ verb: 'save', entity: 'child' })).toEqual({
      loading: 'Saving child...',
      success: 'Child saved!',
      error: 'Failed to save child',
    });
    expect(mutationToastText({ verb: 'send', entity: 'code' }).success).toBe('Code sent!');
  });
});

describe('query retry policy (wire §2.7)', () => {
  test('retries other errors up to 3 times', () => {
    const serverFailure = error({ type: 'serverError' });
    expect([0, 1, 2, 3].map((n) => shouldRetryQuery(n, serverFailure, false))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(shouldRetryQuery(0, error({ type: 'unauthorized' }), false)).toBe(true);
  });
  test.each(['loggedOut', 'notFound', 'badRequest'] as const)('never retries %s', (type) => {
    expect(shouldRetryQuery(0, error({ type }), false)).toBe(false);
  });
  test('never retries in test mode', () => {
    expect(shouldRetryQuery(0, error({ type: 'serverError' }), true)).toBe(false);
  });
  test('backoff 1 s, 2 s, 4 s', () => {
    expect([0, 1, 2].map(queryRetryDelay)).toEqual([1000, 2000, 4000]);
  });
});

describe('a failed read keeps its last answer when the server is unreachable (issue 20)', () => {
  const network = error({ type: 'serverError', id: CLIENT_ERROR_IDS.network });
  const badGateway = error({ debugMessage: 'Unexpected error: status=502, body=' });
  const answer = [{ id: 'child' }];
  test.each([
    ['network failure, online, with an answer', network, answer, false, true],
    ['a proxy says 502, with an answer', badGateway, answer, false, true],
    ['network failure, browser offline', network, answer, true, false],
    ['network failure, nothing read yet', network, undefined, false, false],
    ['a server error', error({ type: 'serverError' }), answer, false, false],
    ['logged out', error({ type: 'loggedOut' }), answer, false, false],
  ])('%s', (_case, failure, data, isOffline, keeps) => {
    expect(keepsLastAnswer({ isError: true, data, error: failure }, isOffline)).toBe(keeps);
  });
  test('a read that did not fail is left as it is', () => {
    expect(keepsLastAnswer({ isError: false, data: answer, error: null }, false)).toBe(false);
  });
});

describe('sidebar', () => {
  const link = (label: string) => sidebarLinks.find((l) => l.label === label)!;
  test('Dashboard needs an exact match', () => {
    expect(isSidebarLinkActive(link('Dashboard'), '/')).toBe(true);
    expect(isSidebarLinkActive(link('Dashboard'), '/children')).toBe(false);
  });
  test('other links match by path prefix', () => {
    expect(isSidebarLinkActive(link('Children'), '/children')).toBe(true);
    expect(isSidebarLinkActive(link('Children'), '/children/abc/activity')).toBe(true);
    expect(isSidebarLinkActive(link('Children'), '/computers')).toBe(false);
    expect(isSidebarLinkActive(link('Security'), '/security-events')).toBe(true);
    expect(isSidebarLinkActive(link('Settings'), '/')).toBe(false);
  });
  test('the links, in order', () => {
    expect(sidebarLinks.map((l) => [l.label, l.to])).toEqual([
      ['Dashboard', '/'],
      ['Needs you', '/inbox'],
      ['Children', '/children'],
      ['Computers', '/computers'],
      ['Keychains', '/keychains'],
      ['Security', '/security-events'],
      ['Settings', '/settings'],
    ]);
  });
  test('iOS devices comes after Computers only when the parent has an iOS device', () => {
    expect(sidebarLinksFor({ hasIosDevices: false })).toEqual(sidebarLinks);
    expect(sidebarLinksFor({ hasIosDevices: true }).map((l) => l.to)).toEqual([
      '/',
      '/inbox',
      '/children',
      '/computers',
      '/ios-devices',
      '/keychains',
      '/security-events',
      '/settings',
    ]);
    const ios = sidebarLinksFor({ hasIosDevices: true }).find((l) => l.to === '/ios-devices')!;
    expect(isSidebarLinkActive(ios, '/ios-devices/abc')).toBe(true);
    expect(isSidebarLinkActive(ios, '/ios-devices-x')).toBe(false);
  });
  test('mobile below 768 px', () => {
    expect(isMobileWidth(767)).toBe(true);
    expect(isMobileWidth(768)).toBe(false);
  });
});
