import { existsSync } from 'node:fs';
import { dashboard } from '@keyward/contract/dashboard';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DAY } from '../src/db/values.ts';
import { createTestServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => server.close());

function expectErrorShape(body: Record<string, unknown>) {
  expect(body).toMatchObject({ version: 1 });
  expect(body.id).toMatch(/^[0-9a-f]{8}$/);
  expect(typeof body.requestId).toBe('string');
  expect(typeof body.debugMessage).toBe('string');
  expect(typeof body.showContactSupport).toBe('boolean');
  for (const key of ['isPqlError', 'tag', 'serverRequestId']) expect(body).not.toHaveProperty(key);
  for (const value of Object.values(body)) expect(value).not.toBeNull();
}

describe('operation lookup', () => {
  test('an unknown operation is 404 notFound 0f5a25c9', async () => {
    const result = await server.call('NoSuchOperation', {});
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ id: '0f5a25c9', type: 'notFound', statusCode: 404 });
    expectErrorShape(result.body);
  });

  test('operation names are case-sensitive', async () => {
    const result = await server.call('login', { email: 'a@b.cd', password: 'x' });
    expect(result.body.id).toBe('0f5a25c9');
  });

  test('an unknown namespace is 404 notFound', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/pairql/nope/Login',
      payload: '{}',
    });
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body).id).toBe('0f5a25c9');
  });

  test('an operation of the contract without a resolver says it is not available yet', async () => {
    const missing = Object.keys(dashboard).find(
      (op) =>
        dashboard[op as keyof typeof dashboard].auth === 'parent' &&
        !existsSync(new URL(`../src/operations/dashboard/${op}.ts`, import.meta.url)),
    );
    if (!missing) return; // every operation is implemented
    const parent = await server.signUpVerifiedParent();
    const result = await server.call(missing, undefined, { token: parent.token });
    expect(result.status).toBe(404);
    expect(result.body.type).toBe('notFound');
    expect(result.body.debugMessage).toBe(`Operation ${missing} is not available yet`);
  });
});

describe('parent authentication', () => {
  test.each([
    ['missing', undefined],
    ['malformed', 'not-a-uuid'],
    ['unknown', '3f2a0c7e-1111-4222-8333-944455556666'],
  ])('a %s token is 401 loggedOut 8df93d61', async (_name, token) => {
    const result = await server.call('GetAdmin', undefined, token ? { token } : {});
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({
      id: '8df93d61',
      type: 'loggedOut',
      debugMessage: 'Admin token not found',
    });
    expectErrorShape(result.body);
  });

  test('the token is accepted in upper case', async () => {
    const parent = await server.signUpVerifiedParent();
    const result = await server.call('GetAdmin', undefined, { token: parent.token.toUpperCase() });
    expect(result.status).toBe(200);
  });

  test('a session expires after 28 days', async () => {
    const parent = await server.signUpVerifiedParent();
    server.clock.advance(28 * DAY - 1000);
    expect((await server.call('GetAdmin', undefined, { token: parent.token })).status).toBe(200);
    server.clock.advance(2000);
    const expired = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(expired.status).toBe(401);
    expect(expired.body.id).toBe('8df93d61');
  });

  test('a revoked (logged out) token is loggedOut', async () => {
    const parent = await server.signUpVerifiedParent();
    expect((await server.call('Logout', undefined, { token: parent.token })).body).toEqual({
      success: true,
    });
    const result = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(result.status).toBe(401);
    expect(result.body.id).toBe('8df93d61');
  });

  test('Logout is idempotent for unknown, missing and revoked tokens', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('Logout', undefined, { token: parent.token });
    for (const options of [{ token: parent.token }, {}, { token: 'garbage' }]) {
      const result = await server.call('Logout', undefined, options);
      expect(result.status).toBe(200);
      expect(result.body).toEqual({ success: true });
    }
  });

  test('Logout revokes only the presented session', async () => {
    const parent = await server.signUpVerifiedParent();
    const second = await server.call('Login', { email: parent.email, password: parent.password });
    await server.call('Logout', undefined, { token: parent.token });
    expect((await server.call('GetAdmin', undefined, { token: second.body.token })).status).toBe(
      200,
    );
  });

  test('none operations ignore X-AdminToken', async () => {
    const result = await server.call(
      'SaveConferenceEmail',
      { email: 'visitor@example.com', source: 'booth' },
      { token: 'garbage' },
    );
    expect(result.status).toBe(200);
  });
});

describe('device authentication', () => {
  test('a missing or unknown X-UserToken is 401 6e88d0de userTokenNotFound', async () => {
    for (const token of [undefined, '3f2a0c7e-1111-4222-8333-944455556666']) {
      const result = await server.call(
        'CheckIn_v2',
        { appVersion: '1.0.0' },
        { namespace: 'macos-app', ...(token ? { token } : {}) },
      );
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({
        id: '6e88d0de',
        type: 'unauthorized',
        appTag: 'userTokenNotFound',
      });
    }
  });
});

describe('request bodies', () => {
  test('invalid JSON is 400 badRequest', async () => {
    const result = await server.call('Login', undefined, { rawBody: '{"email":' });
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expectErrorShape(result.body);
  });

  test('a body over 512 KB is 400 badRequest, not 413', async () => {
    const big = JSON.stringify({ email: 'a@b.cd', password: 'x'.repeat(520 * 1024) });
    const result = await server.call('Login', undefined, { rawBody: big });
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.debugMessage).toContain('512 KB');
  });

  test('a wrong shape names the field in debugMessage and userMessage', async () => {
    const result = await server.call('Login', { email: 'a@b.cd', password: 42 });
    expect(result.status).toBe(400);
    expect(result.body.debugMessage).toContain('password');
    expect(result.body.userMessage).toBe('The password has the wrong kind of value.');
  });

  test('a nested wrong field is named with its path', async () => {
    const parent = await server.signUpVerifiedParent();
    const result = await server.call(
      'DeleteEntity_v2',
      { id: 'not-a-uuid', type: 'parent' },
      { token: parent.token },
    );
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe('The id is not valid.');
  });

  test('a missing or too long field is explained in plain words', async () => {
    const missing = await server.call('Login', { email: 'a@b.cd' });
    expect(missing.body.userMessage).toBe('The password is missing.');
    const tooLong = await server.call('Signup', {
      email: 'a@b.cd',
      password: 'abcd',
      gclid: 'x'.repeat(129),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.userMessage).toBe('The gclid is too long (at most 128 characters).');
  });

  test('an empty body for a non-void operation is 400', async () => {
    const result = await server.call('Login');
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
  });

  test('a void operation ignores any body, any content type', async () => {
    const parent = await server.signUpVerifiedParent();
    for (const rawBody of ['{}', 'null', 'not json at all']) {
      const result = await server.call('GetAdmin', undefined, {
        token: parent.token,
        rawBody,
        headers: { 'content-type': 'text/plain' },
      });
      expect(result.status).toBe(200);
      expect(result.body.id).toBe(parent.adminId);
    }
  });

  test('a body without content type is still read', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/pairql/dashboard/SaveConferenceEmail',
      payload: JSON.stringify({ email: 'nobody@example.com', source: 'workshop' }),
    });
    expect(response.statusCode, response.body).toBe(200);
  });

  test('a null optional input is treated as absent', async () => {
    const result = await server.call('RequestMagicLink', {
      email: 'someone@example.com',
      redirect: null,
    });
    expect(result.status).toBe(200);
  });
});

describe('unexpected failures', () => {
  test('a 500 carries the request id and no internals', async () => {
    const broken = await createTestServer();
    try {
      const parent = await broken.signUpVerifiedParent();
      await sql`drop table notifications`.execute(broken.db);
      const result = await broken.call('GetAdmin', undefined, { token: parent.token });
      expect(result.status).toBe(500);
      expect(result.body).toMatchObject({
        type: 'serverError',
        showContactSupport: true,
        statusCode: 500,
      });
      expectErrorShape(result.body);
      const text = JSON.stringify(result.body);
      expect(text).not.toMatch(/notifications|sql|stack|table/i);
      expect(result.body.debugMessage).toContain(result.body.requestId);
    } finally {
      await broken.close();
    }
  });
});

describe('responses', () => {
  test('success bodies are bare JSON with a JSON content type', async () => {
    const result = await server.call('SaveConferenceEmail', {
      email: 'x@example.com',
      source: 'booth',
    });
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    expect(result.body).toEqual({ success: true });
  });

  test('every response has a request id in errors that differs per request', async () => {
    const a = await server.call('Nope', {});
    const b = await server.call('Nope', {});
    expect(a.body.requestId).not.toBe(b.body.requestId);
  });
});
