import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { callDashboard } from '../src/lib/api/client';
import { NETWORK_ERROR_MESSAGE } from '../src/lib/errors';
import { resetSessionCache } from '../src/lib/session';
import { fakeServer, loggedIn, serverError, TOKEN } from './helpers';

beforeEach(() => {
  resetSessionCache();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('callDashboard request', () => {
  test('POSTs JSON to /pairql/dashboard/{Op} with the token and the dashboard url', async () => {
    loggedIn();
    const calls = fakeServer(() => ({ body: { id: 'x', name: 'Kid' } }));
    const result = await callDashboard('GetUser', '33333333-3333-4333-8333-333333333333');
    expect(result).toEqual({ type: 'success', value: { id: 'x', name: 'Kid' } });
    const fetchMock = vi.mocked(fetch);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/pairql/dashboard/GetUser');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('"33333333-3333-4333-8333-333333333333"');
    expect(calls[0]!.headers).toEqual({
      'Content-Type': 'application/json',
      'X-AdminToken': TOKEN,
      'X-DashboardUrl': window.location.origin,
    });
  });

  test('a void operation sends no body at all, but still the JSON content type', async () => {
    loggedIn();
    fakeServer(() => ({ body: [] }));
    await callDashboard('GetUsers', undefined);
    const init = vi.mocked(fetch).mock.calls[0]![1]!;
    expect(init.body).toBeUndefined();
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  test('public operations carry no token header', async () => {
    loggedIn();
    const calls = fakeServer(() => ({ body: { success: true } }));
    await callDashboard('SendPasswordResetEmail', { email: 'a@b.co' });
    expect(calls[0]!.headers['X-AdminToken']).toBeUndefined();
    expect(calls[0]!.body).toEqual({ email: 'a@b.co' });
  });

  test('a parent operation without a stored token fails locally and sends nothing', async () => {
    const calls = fakeServer(() => ({ body: [] }));
    const result = await callDashboard('GetUsers', undefined);
    expect(calls).toHaveLength(0);
    expect(result).toEqual({
      type: 'error',
      error: {
        isPqlError: true,
        id: '10569a9f',
        type: 'loggedOut',
        debugMessage: 'No parent token found',
      },
    });
  });

  test('the production build never sends X-DashboardUrl', async () => {
    vi.stubEnv('PROD', true);
    const calls = fakeServer(() => ({ body: { success: true } }));
    await callDashboard('SendPasswordResetEmail', { email: 'a@b.co' });
    expect(calls[0]!.headers).toEqual({ 'Content-Type': 'application/json' });
  });
});

describe('callDashboard response handling (wire §2.5)', () => {
  test('a network failure becomes 34fbe3e3 with the network message', async () => {
    fakeServer(() => new TypeError('Failed to fetch'));
    const result = await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(result).toEqual({
      type: 'error',
      error: {
        isPqlError: true,
        id: '34fbe3e3',
        type: 'clientError',
        userMessage: NETWORK_ERROR_MESSAGE,
        debugMessage: 'Failed to fetch',
      },
    });
  });

  test('a body that is not JSON becomes b3162834 with the body in the debug message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>oops</html>', { status: 502 })),
    );
    const result = await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(result.type === 'error' && result.error).toEqual({
      isPqlError: true,
      id: 'b3162834',
      type: 'clientError',
      debugMessage: 'Unexpected error: JSON parse error, body=<html>oops</html>',
      showContactSupport: true,
    });
  });

  test('a 200 with an error-looking body is a success', async () => {
    fakeServer(() => ({ body: { id: 'abcdef12', type: 'notFound' } }));
    const result = await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(result).toEqual({ type: 'success', value: { id: 'abcdef12', type: 'notFound' } });
  });

  test('a server error is converted field by field', async () => {
    fakeServer(() => ({
      status: 404,
      body: {
        id: '6ac1205a',
        type: 'notFound',
        requestId: 'req-9',
        debugMessage: 'no such child',
        userMessage: 'Gone',
        userAction: 'Go back',
        entityName: 'Child',
        dashboardTag: 'someTag',
        appTag: 'ignored',
        showContactSupport: false,
        statusCode: 404,
        version: 1,
      },
    }));
    loggedIn();
    const result = await callDashboard('GetUser', '33333333-3333-4333-8333-333333333333');
    expect(result.type === 'error' && result.error).toEqual({
      isPqlError: true,
      id: '6ac1205a',
      type: 'notFound',
      debugMessage: 'no such child',
      userMessage: 'Gone',
      userAction: 'Go back',
      entityName: 'Child',
      tag: 'someTag',
      serverRequestId: 'req-9',
      showContactSupport: false,
    });
  });

  test('a server error without debugMessage gets the placeholder', async () => {
    fakeServer(() => ({ status: 500, body: { id: '12345678', type: 'serverError' } }));
    const result = await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(result.type === 'error' && result.error.debugMessage).toBe('[no debug message]');
  });

  test('a body that already is a client PqlError is used as is', async () => {
    const pqlError = { isPqlError: true, id: 'aaaabbbb', type: 'unauthorized', debugMessage: 'x' };
    fakeServer(() => ({ status: 401, body: pqlError }));
    const result = await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(result).toEqual({ type: 'error', error: pqlError });
  });

  test('an error status with a body without id becomes b3162834', async () => {
    fakeServer(() => ({ status: 500, body: ['nope'] }));
    const result = await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(result.type === 'error' && result.error).toMatchObject({
      isPqlError: true,
      id: 'b3162834',
      type: 'clientError',
      showContactSupport: true,
    });
    expect(result.type === 'error' && result.error.debugMessage).toMatch(/^Unexpected error: /);
  });

  test('any other exception is wrapped as 59b169c4 with showContactSupport', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ({
        status: 200,
        text: () => Promise.reject(new Error('stream broke')),
      })),
    );
    const result = await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(result.type === 'error' && result.error).toEqual({
      isPqlError: true,
      id: '59b169c4',
      type: 'clientError',
      debugMessage: 'Unexpected error: stream broke',
      showContactSupport: true,
    });
  });

  test('errors are logged outside production only', async () => {
    fakeServer(() => serverError('badRequest'));
    await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(console.error).toHaveBeenCalledTimes(1);
    vi.stubEnv('PROD', true);
    await callDashboard('Login', { email: 'a@b.co', password: 'pass' });
    expect(console.error).toHaveBeenCalledTimes(1);
  });
});
