import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { normaliseRecoveryCode } from '../src/accounts/second-factor.ts';
import { MINUTE } from '../src/db/values.ts';
import { inviteCoParent, securityEvents } from './fixtures.ts';
import { type CallResult, createTestServer, type TestServer } from './harness.ts';

// Issue 12: two-factor sign-in with an authenticator app (TOTP) and recovery codes, on an injected
// clock. Runs on SQLite and on PostgreSQL (TEST_DATABASE_URL).

type Parent = Awaited<ReturnType<TestServer['signUpVerifiedParent']>>;

/** The authenticator's code at the server clock's instant, `steps` periods away. */
function codeAt(server: TestServer, secret: string, steps = 0) {
  return generate({ secret, epoch: Math.floor(server.clock.now().getTime() / 1000) + steps * 30 });
}

async function enrol(server: TestServer, parent: Parent) {
  const started = await server.call('StartTotpEnrolment', undefined, { token: parent.token });
  expect(started.status).toBe(200);
  const confirmed = await server.call(
    'ConfirmTotpEnrolment',
    { code: await codeAt(server, started.body.secret) },
    { token: parent.token },
  );
  expect(confirmed.status).toBe(200);
  // the enrolment code is spent: move to the next period so the next code is fresh
  server.clock.advance(30_000);
  return { secret: started.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes };
}

async function challengeFor(server: TestServer, parent: Parent, headers = {}) {
  const login = await server.call(
    'Login',
    { email: parent.email, password: parent.password },
    { headers },
  );
  expect(login.status).toBe(200);
  expect(login.body.token).toBeUndefined();
  return login.body.secondFactorChallenge as string;
}

describe('authenticator app', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  test('an account without a second factor logs in exactly as before', async () => {
    const parent = await server.signUpVerifiedParent();
    const login = await server.call('Login', { email: parent.email, password: parent.password });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['adminId', 'token']);
    const security = await server.call('GetSignInSecurity', undefined, { token: parent.token });
    expect(security.body).toEqual({ totpEnabled: false, recoveryCodesLeft: 0, passkeys: [] });
  });

  test('enrolment: the secret is stored encrypted, the first code turns it on, 10 recovery codes stored hashed', async () => {
    const parent = await server.signUpVerifiedParent();
    const started = await server.call('StartTotpEnrolment', undefined, { token: parent.token });
    expect(started.status).toBe(200);
    expect(started.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(started.body.otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(started.body.secret);
    expect(url.searchParams.get('issuer')).toBe('Keyward');
    expect(decodeURIComponent(started.body.otpauthUrl)).toContain(parent.email);

    const row = await server.db
      .selectFrom('totp_factors')
      .selectAll()
      .where('person_id', '=', parent.adminId)
      .executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(started.body.secret);
    expect(row.confirmed_at).toBeNull();

    // not on yet: Login still answers a session
    const before = await server.call('Login', { email: parent.email, password: parent.password });
    expect(before.body.token).toBeDefined();

    const wrong = await server.call(
      'ConfirmTotpEnrolment',
      { code: '000000' },
      { token: parent.token },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.body.userMessage).toMatch(/didn't work/);

    const confirmed = await server.call(
      'ConfirmTotpEnrolment',
      { code: await codeAt(server, started.body.secret) },
      { token: parent.token },
    );
    expect(confirmed.status).toBe(200);
    const codes: string[] = confirmed.body.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);

    const stored = await server.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('person_id', '=', parent.adminId)
      .execute();
    expect(stored).toHaveLength(10);
    const storedText = JSON.stringify(stored);
    for (const code of codes) {
      expect(storedText).not.toContain(code);
      expect(storedText).not.toContain(normaliseRecoveryCode(code));
    }

    expect(await securityEvents(server, parent.adminId, 'totpEnabled')).toHaveLength(1);
    expect(server.lastEmailTo(parent.email, 'totp-enabled').text).toContain('authenticator app');
    const security = await server.call('GetSignInSecurity', undefined, { token: parent.token });
    expect(security.body).toMatchObject({ totpEnabled: true, recoveryCodesLeft: 10 });

    const again = await server.call('StartTotpEnrolment', undefined, { token: parent.token });
    expect(again.status).toBe(400);
    expect(again.body.userMessage).toMatch(/already set up/);
  });

  test("turning the authenticator on ends the person's other sessions, not this one nor another parent's (issue 19)", async () => {
    const parent = await server.signUpVerifiedParent();
    const elsewhere = await server.call('Login', {
      email: parent.email,
      password: parent.password,
    });
    expect(elsewhere.status).toBe(200);
    const signedIn = async (token: string) =>
      (await server.call('GetAdmin', undefined, { token })).status;
    expect(await signedIn(elsewhere.body.token)).toBe(200);
    const co = await inviteCoParent(server, parent);

    await enrol(server, parent);

    expect(await signedIn(elsewhere.body.token)).toBe(401);
    expect(await signedIn(parent.token)).toBe(200);
    expect(await signedIn(co.token)).toBe(200);
    // a session opened now needs the second step
    const login = await server.call('Login', { email: parent.email, password: parent.password });
    expect(login.body.token).toBeUndefined();
  });

  test('Login and LoginMagicLink answer a challenge; the current code opens a session once', async () => {
    const parent = await server.signUpVerifiedParent();
    const { secret } = await enrol(server, parent);

    const challenge = await challengeFor(server, parent);
    const login = await server.call('Login', { email: parent.email, password: parent.password });
    expect(login.body).toEqual({
      secondFactorChallenge: expect.any(String),
      secondFactorMethods: ['totp'],
    });
    const code = await codeAt(server, secret);
    const done = await server.call('LoginSecondFactor', { challenge, code });
    expect(done.status).toBe(200);
    expect(done.body.adminId).toBe(parent.adminId);
    expect((await server.call('GetAdmin', undefined, { token: done.body.token })).status).toBe(200);
    const logins = await securityEvents(server, parent.adminId, 'login');
    expect(logins.at(-1)?.detail).toBe('using email/password and an authenticator code');

    // the same challenge again: spent
    const reused = await server.call('LoginSecondFactor', { challenge, code });
    expect(reused.status).toBe(401);
    expect(reused.body.dashboardTag).toBe('secondFactorChallengeExpired');
    expect(reused.body.userMessage).toBe('This sign-in has expired. Please sign in again.');

    // the same code on a new challenge: refused (a code works once)
    const replay = await server.call('LoginSecondFactor', {
      challenge: await challengeFor(server, parent),
      code,
    });
    expect(replay.status).toBe(401);

    // magic link
    await server.call('RequestMagicLink', { email: parent.email });
    const link = server.linkIn(server.lastEmailTo(parent.email, 'magic-link'), '/otp/');
    const magic = await server.call('LoginMagicLink', { token: link.pathname.split('/').at(-1) });
    expect(magic.status).toBe(200);
    expect(magic.body.token).toBeUndefined();
    server.clock.advance(30_000);
    const viaLink = await server.call('LoginSecondFactor', {
      challenge: magic.body.secondFactorChallenge,
      code: await codeAt(server, secret),
    });
    expect(viaLink.status).toBe(200);
    expect((await securityEvents(server, parent.adminId, 'login')).at(-1)?.detail).toBe(
      'using magic link and an authenticator code',
    );
  });

  test.each([
    [-1, 200],
    [1, 200],
    [-2, 401],
    [2, 401],
  ])('a code %i period(s) away from the server clock answers %i', async (steps, status) => {
    const parent = await server.signUpVerifiedParent();
    const { secret } = await enrol(server, parent);
    server.clock.advance(5 * 60_000);
    const challenge = await challengeFor(server, parent);
    const result = await server.call('LoginSecondFactor', {
      challenge,
      code: await codeAt(server, secret, steps),
    });
    expect(result.status).toBe(status);
  });

  test('a challenge expires after 10 minutes', async () => {
    const parent = await server.signUpVerifiedParent();
    const { secret } = await enrol(server, parent);
    const challenge = await challengeFor(server, parent);
    server.clock.advance(10 * MINUTE + 1000);
    const late = await server.call('LoginSecondFactor', {
      challenge,
      code: await codeAt(server, secret),
    });
    expect(late.status).toBe(401);
    expect(late.body.dashboardTag).toBe('secondFactorChallengeExpired');
  });

  test('recovery codes: each works once, in any case and spacing; its use is an event and an email', async () => {
    const parent = await server.signUpVerifiedParent();
    const { recoveryCodes } = await enrol(server, parent);
    const [first] = recoveryCodes as string[];
    const typed = ` ${first!.toUpperCase().replaceAll('-', ' ')} `;
    const used = await server.call('LoginSecondFactor', {
      challenge: await challengeFor(server, parent),
      code: typed,
    });
    expect(used.status).toBe(200);
    expect(await securityEvents(server, parent.adminId, 'recoveryCodeUsed')).toHaveLength(1);
    expect(server.lastEmailTo(parent.email, 'recovery-code-used').text).toContain(
      'you have 9 left',
    );

    const again = await server.call('LoginSecondFactor', {
      challenge: await challengeFor(server, parent),
      code: first,
    });
    expect(again.status).toBe(401);
    const security = await server.call('GetSignInSecurity', undefined, { token: parent.token });
    expect(security.body.recoveryCodesLeft).toBe(9);
  });

  test('DisableTotp needs a current code; afterwards Login answers a session again', async () => {
    const parent = await server.signUpVerifiedParent();
    const { secret } = await enrol(server, parent);
    const wrong = await server.call('DisableTotp', { code: '123456' }, { token: parent.token });
    expect(wrong.status).toBe(401);
    const off = await server.call(
      'DisableTotp',
      { code: await codeAt(server, secret) },
      { token: parent.token },
    );
    expect(off.status).toBe(200);
    expect(await securityEvents(server, parent.adminId, 'totpDisabled')).toHaveLength(1);
    expect(server.lastEmailTo(parent.email, 'totp-disabled')).toBeDefined();
    const remaining = await server.db
      .selectFrom('recovery_codes')
      .select('id')
      .where('person_id', '=', parent.adminId)
      .execute();
    expect(remaining).toEqual([]);
    const login = await server.call('Login', { email: parent.email, password: parent.password });
    expect(login.body.token).toBeDefined();
    const twice = await server.call('DisableTotp', { code: '123456' }, { token: parent.token });
    expect(twice.status).toBe(400);
  });

  test.each([
    [
      'an unknown challenge',
      { challenge: '6f1c1b3e-3d5e-4a4f-9a7e-0c2d3e4f5a6b', code: '123456' },
      401,
    ],
    ['no code', { challenge: '6f1c1b3e-3d5e-4a4f-9a7e-0c2d3e4f5a6b' }, 400],
    ['a malformed challenge', { challenge: 'abc', code: '123456' }, 400],
  ])('LoginSecondFactor with %s answers %i with a message', async (_what, input, status) => {
    const result = await server.call('LoginSecondFactor', input);
    expect(result.status).toBe(status);
    expect(result.body.userMessage ?? result.body.debugMessage).toEqual(expect.any(String));
  });

  test('with a second factor on, the signup form with the right password opens no session', async () => {
    const parent = await server.signUpVerifiedParent();
    await enrol(server, parent);
    const signup = await server.call('Signup', { email: parent.email, password: parent.password });
    expect(signup.status).toBe(200);
    expect(signup.body).toEqual({});
    expect(server.lastEmailTo(parent.email, 're-signup')).toBeDefined();
  });

  test('a TOTP secret of one person does not leak to another family', async () => {
    const alice = await server.signUpVerifiedParent();
    const bob = await server.signUpVerifiedParent();
    await enrol(server, alice);
    const bobs = await server.call('GetSignInSecurity', undefined, { token: bob.token });
    expect(bobs.body.totpEnabled).toBe(false);
    const bobLogin = await server.call('Login', { email: bob.email, password: bob.password });
    expect(bobLogin.body.token).toBeDefined();
  });
});

describe('wrong-code budgets under parallel requests', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({
      env: { RATE_LIMIT_SCALE: '1', TRUSTED_PROXIES: '127.0.0.1' },
    });
  });
  afterAll(() => server.close());

  const statuses = (results: CallResult[]) =>
    results.reduce<Record<number, number>>((counts, r) => {
      counts[r.status] = (counts[r.status] ?? 0) + 1;
      return counts;
    }, {});
  let ip = 0;
  const fromNewIp = () => ({ headers: { 'x-forwarded-for': `198.51.100.${++ip}` } });

  test('5 wrong codes per challenge and 10 per person are evaluated, whatever the parallelism', async () => {
    const parent = await server.signUpVerifiedParent();
    const { secret } = await enrol(server, parent);

    const wrongBurst = async (challenge: string) =>
      Promise.all(
        Array.from({ length: 20 }, () =>
          server.call('LoginSecondFactor', { challenge, code: '000000' }, fromNewIp()),
        ),
      );

    const first = await wrongBurst(await challengeFor(server, parent, fromNewIp().headers));
    expect(statuses(first)).toEqual({ 401: 5, 429: 15 });
    expect(first.find((r) => r.status === 429)?.headers['retry-after']).toBeDefined();

    const second = await wrongBurst(await challengeFor(server, parent, fromNewIp().headers));
    expect(statuses(second)).toEqual({ 401: 5, 429: 15 });

    // the person's budget is spent: even the right code waits for the window
    const third = await server.call(
      'LoginSecondFactor',
      {
        challenge: await challengeFor(server, parent, fromNewIp().headers),
        code: await codeAt(server, secret),
      },
      fromNewIp(),
    );
    expect(third.status).toBe(429);

    server.clock.advance(15 * MINUTE);
    const later = await server.call(
      'LoginSecondFactor',
      {
        challenge: await challengeFor(server, parent, fromNewIp().headers),
        code: await codeAt(server, secret),
      },
      fromNewIp(),
    );
    expect(later.status).toBe(200);
    expect(await securityEvents(server, parent.adminId, 'loginFailed')).toHaveLength(10);
  });

  test('a right code typed again within its 30 seconds says so and spends no budget (issue 19)', async () => {
    const parent = await server.signUpVerifiedParent();
    const { secret } = await enrol(server, parent);
    const code = await codeAt(server, secret);
    const first = await server.call(
      'LoginSecondFactor',
      { challenge: await challengeFor(server, parent, fromNewIp().headers), code },
      fromNewIp(),
    );
    expect(first.status).toBe(200);
    // more than the person's budget of wrong codes (10)
    for (let i = 0; i < 12; i++) {
      const again = await server.call(
        'LoginSecondFactor',
        { challenge: await challengeFor(server, parent, fromNewIp().headers), code },
        fromNewIp(),
      );
      expect([again.status, again.body.id]).toEqual([401, '2fa7d3ba']);
      expect(again.body.userMessage).toMatch(/^That code was just used\./);
    }
    server.clock.advance(30_000);
    const next = await server.call(
      'LoginSecondFactor',
      {
        challenge: await challengeFor(server, parent, fromNewIp().headers),
        code: await codeAt(server, secret),
      },
      fromNewIp(),
    );
    expect(next.status).toBe(200);
  });

  test('50 parallel confirmations with the right code: one turns it on and none spends the wrong-code budget (issue 19)', async () => {
    const parent = await server.signUpVerifiedParent();
    const started = await server.call('StartTotpEnrolment', undefined, { token: parent.token });
    const code = await codeAt(server, started.body.secret);
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        server.call('ConfirmTotpEnrolment', { code }, { token: parent.token }),
      ),
    );
    const answers = results.map((r) =>
      r.status === 200 ? 'on' : r.status === 429 ? 'refused' : `${r.status} ${r.body.id}`,
    );
    expect(answers.filter((a) => a === 'on')).toHaveLength(1);
    // the others: already set up, the same code already used, or refused while the budget was
    // held by attempts in flight; never a wrong code
    for (const answer of answers) {
      expect(['on', '400 2fa3e5a0', '401 2fa7d3ba', 'refused']).toContain(answer);
    }
    expect(answers).not.toContain('401 2fa7d3b9');
    const recoveryCodes: string[] = results.find((r) => r.status === 200)!.body.recoveryCodes;
    const stored = await server.db
      .selectFrom('recovery_codes')
      .select('id')
      .where('person_id', '=', parent.adminId)
      .execute();
    expect(stored).toHaveLength(10);

    // the budget is whole: a recovery code signs in at once...
    const signedIn = await server.call(
      'LoginSecondFactor',
      {
        challenge: await challengeFor(server, parent, fromNewIp().headers),
        code: recoveryCodes[0],
      },
      fromNewIp(),
    );
    expect(signedIn.status).toBe(200);
    // ...and 10 wrong codes are evaluated before the person's budget says no
    const wrongCode = (challenge: string) =>
      server.call('LoginSecondFactor', { challenge, code: '000000' }, fromNewIp());
    const wrong: CallResult[] = [];
    for (const challengeNumber of [1, 2, 3]) {
      const challenge = await challengeFor(server, parent, fromNewIp().headers);
      const tries = challengeNumber < 3 ? 5 : 1;
      for (let i = 0; i < tries; i++) wrong.push(await wrongCode(challenge));
    }
    expect(statuses(wrong)).toEqual({ 401: 10, 429: 1 });
  });

  test('parallel uses of one right code and one recovery code: exactly one session each', async () => {
    const parent = await server.signUpVerifiedParent();
    const { secret, recoveryCodes } = await enrol(server, parent);
    const challenges = await Promise.all(
      Array.from({ length: 4 }, () => challengeFor(server, parent, fromNewIp().headers)),
    );
    const results = await Promise.all(
      challenges.map((challenge) =>
        server.call('LoginSecondFactor', { challenge, code: recoveryCodes[0] }, fromNewIp()),
      ),
    );
    expect(statuses(results)).toEqual({ 200: 1, 401: 3 });

    server.clock.advance(30_000);
    const code = await codeAt(server, secret);
    const more = await Promise.all(
      Array.from({ length: 4 }, () => challengeFor(server, parent, fromNewIp().headers)),
    );
    const withCode = await Promise.all(
      more.map((challenge) => server.call('LoginSecondFactor', { challenge, code }, fromNewIp())),
    );
    expect(statuses(withCode)).toEqual({ 200: 1, 401: 3 });
  });
});
