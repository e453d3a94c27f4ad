import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from 'otplib';
import { MINUTE } from '../src/db/values.ts';
import { securityEvents } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';
import { softAuthenticator } from './soft-authenticator.ts';

// Issue 12: passkeys through @simplewebauthn/server, driven by a software authenticator (ES256,
// 'none' attestation): registration, password-less sign-in, second step after the password,
// replay, another site's origin, removal and ownership. SQLite and PostgreSQL.

let server: TestServer;
let origin: string;
beforeAll(async () => {
  server = await createTestServer();
  origin = new URL(server.config.dashboardUrls[0]!).origin;
});
afterAll(() => server.close());

async function register(token: string, name?: string) {
  const authenticator = softAuthenticator(origin);
  const start = await server.call('StartPasskeyRegistration', undefined, { token });
  expect(start.status).toBe(200);
  expect(start.body.options.rp.id).toBe(new URL(origin).hostname);
  expect(start.body.options.authenticatorSelection.residentKey).toBe('required');
  const finish = await server.call(
    'FinishPasskeyRegistration',
    { response: authenticator.register(start.body.options), ...(name ? { name } : {}) },
    { token },
  );
  expect(finish.status).toBe(200);
  return {
    authenticator,
    passkeyId: finish.body.passkeyId as string,
    recoveryCodes: finish.body.recoveryCodes as string[] | undefined,
  };
}

describe('passkeys', () => {
  test('registration stores the public key; it is an event and an email; GetSignInSecurity lists it', async () => {
    const parent = await server.signUpVerifiedParent();
    const { passkeyId } = await register(parent.token, 'MacBook');
    const row = await server.db
      .selectFrom('passkeys')
      .selectAll()
      .where('id', '=', passkeyId)
      .executeTakeFirstOrThrow();
    expect(row.person_id).toBe(parent.adminId);
    expect(row.name).toBe('MacBook');
    const security = await server.call('GetSignInSecurity', undefined, { token: parent.token });
    expect(security.body.passkeys).toEqual([
      { id: passkeyId, name: 'MacBook', createdAt: expect.any(String) },
    ]);
    expect((await securityEvents(server, parent.adminId, 'passkeyAdded'))[0]?.detail).toBe(
      'MacBook',
    );
    expect(server.lastEmailTo(parent.email, 'passkey-added').text).toContain('"MacBook"');
  });

  test("the first passkey ends the person's other sessions; a second one does not (issue 19)", async () => {
    const parent = await server.signUpVerifiedParent();
    const signedIn = async (token: string) =>
      (await server.call('GetAdmin', undefined, { token })).status;
    const login = () => server.call('Login', { email: parent.email, password: parent.password });
    const before = (await login()).body.token as string;
    expect(await signedIn(before)).toBe(200);

    await register(parent.token, 'MacBook');
    expect(await signedIn(before)).toBe(401);
    expect(await signedIn(parent.token)).toBe(200);

    // signed in again with the passkey as second step: a second passkey keeps that session
    const { authenticator } = await register(parent.token, 'Phone');
    const challenge = await login();
    const start = await server.call('StartPasskeyLogin', {
      secondFactorChallenge: challenge.body.secondFactorChallenge,
    });
    const done = await server.call('FinishPasskeyLogin', {
      challengeId: start.body.challengeId,
      response: authenticator.authenticate(start.body.options),
    });
    expect(done.status).toBe(200);
    await register(parent.token, 'Tablet');
    expect(await signedIn(done.body.token)).toBe(200);
  });

  test('a registration response for another challenge or origin is refused', async () => {
    const parent = await server.signUpVerifiedParent();
    const start = await server.call('StartPasskeyRegistration', undefined, {
      token: parent.token,
    });
    const elsewhere = softAuthenticator('https://evil.example.com');
    const refused = await server.call(
      'FinishPasskeyRegistration',
      { response: elsewhere.register(start.body.options) },
      { token: parent.token },
    );
    expect(refused.status).toBe(401);
    expect(refused.body.userMessage).toMatch(/passkey didn't work/);
    const forged = softAuthenticator(origin).register({
      ...start.body.options,
      challenge: 'bm90LXRoZS1jaGFsbGVuZ2U',
    });
    const wrongChallenge = await server.call(
      'FinishPasskeyRegistration',
      { response: forged },
      { token: parent.token },
    );
    expect(wrongChallenge.status).toBe(401);
  });

  test('password-less sign-in with a passkey; the assertion cannot be replayed', async () => {
    const parent = await server.signUpVerifiedParent();
    const { authenticator } = await register(parent.token);
    const start = await server.call('StartPasskeyLogin', {});
    expect(start.status).toBe(200);
    expect(start.body.options.allowCredentials ?? []).toEqual([]);
    const assertion = authenticator.authenticate(start.body.options);
    const done = await server.call('FinishPasskeyLogin', {
      challengeId: start.body.challengeId,
      response: assertion,
    });
    expect(done.status).toBe(200);
    expect(done.body.adminId).toBe(parent.adminId);
    expect((await server.call('GetAdmin', undefined, { token: done.body.token })).status).toBe(200);
    expect((await securityEvents(server, parent.adminId, 'login')).at(-1)?.detail).toBe(
      'using a passkey',
    );
    const replay = await server.call('FinishPasskeyLogin', {
      challengeId: start.body.challengeId,
      response: assertion,
    });
    expect(replay.status).toBe(401);
  });

  test('an assertion from another origin, or after the ceremony expired, is refused', async () => {
    const parent = await server.signUpVerifiedParent();
    const { authenticator } = await register(parent.token);
    const start = await server.call('StartPasskeyLogin', {});
    const phished = await server.call('FinishPasskeyLogin', {
      challengeId: start.body.challengeId,
      response: authenticator.authenticate(start.body.options, {
        origin: 'https://evil.example.com',
      }),
    });
    expect(phished.status).toBe(401);
    const late = await server.call('StartPasskeyLogin', {});
    server.clock.advance(5 * MINUTE + 1000);
    const expired = await server.call('FinishPasskeyLogin', {
      challengeId: late.body.challengeId,
      response: authenticator.authenticate(late.body.options),
    });
    expect(expired.status).toBe(401);
  });

  test('as a second factor: Login answers a challenge; only that person’s passkey completes it', async () => {
    const parent = await server.signUpVerifiedParent();
    const other = await server.signUpVerifiedParent();
    const { authenticator } = await register(parent.token);
    const { authenticator: othersKey } = await register(other.token);

    const login = await server.call('Login', { email: parent.email, password: parent.password });
    expect(login.body).toEqual({
      secondFactorChallenge: expect.any(String),
      secondFactorMethods: ['passkey'],
    });
    const start = await server.call('StartPasskeyLogin', {
      secondFactorChallenge: login.body.secondFactorChallenge,
    });
    expect(start.body.options.allowCredentials).toEqual([
      expect.objectContaining({ id: authenticator.credentialId }),
    ]);
    const wrongPerson = await server.call('FinishPasskeyLogin', {
      challengeId: start.body.challengeId,
      response: othersKey.authenticate(start.body.options),
    });
    expect(wrongPerson.status).toBe(401);

    const again = await server.call('StartPasskeyLogin', {
      secondFactorChallenge: login.body.secondFactorChallenge,
    });
    const done = await server.call('FinishPasskeyLogin', {
      challengeId: again.body.challengeId,
      response: authenticator.authenticate(again.body.options),
    });
    expect(done.status).toBe(200);
    expect(done.body.adminId).toBe(parent.adminId);
    expect((await securityEvents(server, parent.adminId, 'login')).at(-1)?.detail).toBe(
      'using email/password and a passkey',
    );
    // the Login challenge is spent
    const reuse = await server.call('StartPasskeyLogin', {
      secondFactorChallenge: login.body.secondFactorChallenge,
    });
    expect(reuse.status).toBe(401);
  });

  test('RemovePasskey: another family’s passkey is refused like a missing one; removal is an event and an email', async () => {
    const parent = await server.signUpVerifiedParent();
    const other = await server.signUpVerifiedParent();
    const { passkeyId, authenticator } = await register(parent.token, 'Phone');
    const foreign = await server.call('RemovePasskey', { id: passkeyId }, { token: other.token });
    const missing = await server.call(
      'RemovePasskey',
      { id: '5c4b3a29-1e0f-4d9c-8b7a-6f5e4d3c2b1a' },
      { token: other.token },
    );
    expect(foreign.status).toBe(404);
    const { requestId: _a, ...foreignBody } = foreign.body;
    const { requestId: _b, ...missingBody } = missing.body;
    expect(foreignBody).toEqual(missingBody);

    const removed = await server.call('RemovePasskey', { id: passkeyId }, { token: parent.token });
    expect(removed.status).toBe(200);
    expect(await securityEvents(server, parent.adminId, 'passkeyRemoved')).toHaveLength(1);
    expect(server.lastEmailTo(parent.email, 'passkey-removed').text).toContain('"Phone"');
    const start = await server.call('StartPasskeyLogin', {});
    const refused = await server.call('FinishPasskeyLogin', {
      challengeId: start.body.challengeId,
      response: authenticator.authenticate(start.body.options),
    });
    expect(refused.status).toBe(401);
    const login = await server.call('Login', { email: parent.email, password: parent.password });
    expect(login.body.token).toBeDefined();
  });
});

describe('a lost passkey', () => {
  const tokenIn = (email: string, template: 'magic-link' | 'password-reset') => {
    const prefix = template === 'magic-link' ? '/otp/' : '/reset-password/';
    return server.linkIn(server.lastEmailTo(email, template), prefix).pathname.split('/').at(-1)!;
  };
  const codesLeft = async (token: string) =>
    (await server.call('GetSignInSecurity', undefined, { token })).body.recoveryCodesLeft;

  test('the first passkey comes with 10 recovery codes; a person whose only factor was a lost passkey signs in with one', async () => {
    const parent = await server.signUpVerifiedParent();
    const first = await register(parent.token, 'Laptop');
    expect(first.recoveryCodes).toHaveLength(10);
    expect(new Set(first.recoveryCodes).size).toBe(10);
    expect(await codesLeft(parent.token)).toBe(10);
    // a second passkey keeps the codes the person has
    const second = await register(parent.token, 'Phone');
    expect(second.recoveryCodes).toBeUndefined();
    expect(await codesLeft(parent.token)).toBe(10);
    const codes = first.recoveryCodes!;

    // both passkeys lost; the password is forgotten too
    await server.call('SendPasswordResetEmail', { email: parent.email });
    const reset = await server.call('ResetPassword', {
      token: tokenIn(parent.email, 'password-reset'),
      password: 'a brand new password',
    });
    expect(reset.body).toEqual({ success: true });
    const login = await server.call('Login', {
      email: parent.email,
      password: 'a brand new password',
    });
    expect(login.body.secondFactorMethods).toEqual(['passkey']);
    const signedIn = await server.call('LoginSecondFactor', {
      challenge: login.body.secondFactorChallenge,
      code: codes[0],
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.adminId).toBe(parent.adminId);
    expect(server.lastEmailTo(parent.email, 'recovery-code-used')).toBeDefined();

    // a magic link's second step takes a recovery code too, once each
    await server.call('RequestMagicLink', { email: parent.email });
    const viaLink = await server.call('LoginMagicLink', {
      token: tokenIn(parent.email, 'magic-link'),
    });
    expect(viaLink.body.secondFactorMethods).toEqual(['passkey']);
    const reused = await server.call('LoginSecondFactor', {
      challenge: viaLink.body.secondFactorChallenge,
      code: codes[0],
    });
    expect(reused.status).toBe(401);
    const withAnother = await server.call('LoginSecondFactor', {
      challenge: viaLink.body.secondFactorChallenge,
      code: codes[1],
    });
    expect(withAnother.status).toBe(200);
    expect(await codesLeft(signedIn.body.token)).toBe(8);

    // signed in again, the person removes the lost passkeys: the password alone signs in
    for (const id of [first.passkeyId, second.passkeyId]) {
      const removed = await server.call('RemovePasskey', { id }, { token: signedIn.body.token });
      expect(removed.status).toBe(200);
    }
    const plain = await server.call('Login', {
      email: parent.email,
      password: 'a brand new password',
    });
    expect(plain.body.token).toEqual(expect.any(String));
  });

  test('turning the authenticator app off keeps the recovery codes while a passkey remains', async () => {
    const parent = await server.signUpVerifiedParent();
    const started = await server.call('StartTotpEnrolment', undefined, { token: parent.token });
    const codeAt = (seconds: number) =>
      generate({ secret: started.body.secret, epoch: Math.floor(seconds) });
    const now = () => server.clock.now().getTime() / 1000;
    const confirmed = await server.call(
      'ConfirmTotpEnrolment',
      { code: await codeAt(now()) },
      { token: parent.token },
    );
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    // the passkey keeps the app's codes: none are issued with it
    const { recoveryCodes } = await register(parent.token);
    expect(recoveryCodes).toBeUndefined();

    server.clock.advance(30_000);
    const disabled = await server.call(
      'DisableTotp',
      { code: await codeAt(now()) },
      { token: parent.token },
    );
    expect(disabled.body).toEqual({ success: true });
    expect(await codesLeft(parent.token)).toBe(10);
    const login = await server.call('Login', { email: parent.email, password: parent.password });
    expect(login.body.secondFactorMethods).toEqual(['passkey']);
    const signedIn = await server.call('LoginSecondFactor', {
      challenge: login.body.secondFactorChallenge,
      code: confirmed.body.recoveryCodes[0],
    });
    expect(signedIn.status).toBe(200);
  });
});
