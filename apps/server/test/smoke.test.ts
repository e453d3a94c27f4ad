import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestServer, type TestServer } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => server.close());

test('signup, verify, get admin', async () => {
  const parent = await server.signUpVerifiedParent();
  const admin = await server.call('GetAdmin', undefined, { token: parent.token });
  expect(admin.status).toBe(200);
  expect(admin.body.email).toBe(parent.email);
});
