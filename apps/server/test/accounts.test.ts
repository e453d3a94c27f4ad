import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DAY, HOUR, MINUTE, toDbTime } from '../src/db/values.ts';
import { createTestServer, type TestServer, uniqueEmail } from './harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => server.close());

const tokenFrom = (url: URL) => url.pathname.split('/').at(-1)!;

async function parentRow(email: string) {
  return server.db
    .selectFrom('parents')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
}

async function events(parentId: string) {
  return server.db
    .selectFrom('security_events')
    .select(['event', 'detail', 'ip_address'])
    .where('parent_id', '=', parentId)
    .orderBy('created_at')
    .execute();
}

describe('Signup', () => {
  test('a new email gets a pending account and a verification email', async () => {
    const email = uniqueEmail();
    const result = await server.call('Signup', {
      email: email.toUpperCase(),
      password: 'abcd',
      gclid: 'click-1',
      abTestVariant: 'b',
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({});
    const row = await parentRow(email);
    expect(row.subscription_status).toBe('pendingEmailVerification');
    expect(row.subscription_status_expiration).toBe(
      toDbTime(new Date(server.clock.now().getTime() + 3 * DAY)),
    );
    expect(row.gclid).toBe('click-1');
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const mail = server.lastEmailTo(email, 'initial-signup');
    expect(mail.subject).toMatch(/ \[ref:[0-9a-f]{5}\]$/);
    expect(server.linkIn(mail, '/verify-signup-email/').origin).toBe(
      server.config.dashboardUrls[0],
    );
  });

  test.each([
    [{ email: 'no-at-sign.example.com', password: 'abcd' }, 'email'],
    [{ email: 'a@b.c', password: 'abcd' }, 'email'],
    [{ email: 'a@@example.com', password: 'abcd' }, 'email'],
    [{ email: 'ok@example.com', password: 'abc' }, 'password'],
    [{ email: 'ok@example.com', password: 'x'.repeat(257) }, 'password'],
  ])('%j is a badRequest about %s', async (input, field) => {
    const result = await server.call('Signup', input);
    expect(result.status).toBe(400);
    expect(result.body.type).toBe('badRequest');
    expect(result.body.debugMessage).toContain(field);
    expect(result.body.userMessage).toBeTruthy();
  });

  test('a pending email signing up again gets a fresh verification email', async () => {
    const email = uniqueEmail();
    await server.call('Signup', { email, password: 'first' });
    const before = server.mails.length;
    const again = await server.call('Signup', { email, password: 'second' });
    expect(again.body).toEqual({});
    expect(server.mails.length).toBe(before + 1);
    expect(server.lastEmailTo(email).template).toBe('initial-signup');
    // the newest signup's password is the one that works once the address is verified
    const token = tokenFrom(server.linkIn(server.lastEmailTo(email), '/verify-signup-email/'));
    expect((await server.call('VerifySignupEmail', { token })).status).toBe(200);
    expect((await server.call('Login', { email, password: 'first' })).status).toBe(401);
    expect((await server.call('Login', { email, password: 'second' })).status).toBe(200);
  });

  test('a verified email with the right password is logged in', async () => {
    const parent = await server.signUpVerifiedParent();
    const result = await server.call('Signup', { email: parent.email, password: parent.password });
    expect(result.body.admin.adminId).toBe(parent.adminId);
    const admin = await server.call('GetAdmin', undefined, { token: result.body.admin.token });
    expect(admin.status).toBe(200);
    expect((await events(parent.adminId)).map((e) => e.event)).toContain('login');
  });

  test('a verified email with a wrong password gets a re-signup email and the same answer', async () => {
    const parent = await server.signUpVerifiedParent();
    const fresh = await server.call('Signup', { email: uniqueEmail(), password: 'whatever' });
    const result = await server.call('Signup', { email: parent.email, password: 'wrong pass' });
    expect(result.status).toBe(fresh.status);
    expect(result.body).toEqual(fresh.body);
    const mail = server.lastEmailTo(parent.email);
    expect(mail.template).toBe('re-signup');
    expect(server.linkIn(mail, '/login').href).toBe(`${server.config.dashboardUrls[0]}/login`);
    expect((await events(parent.adminId)).map((e) => e.event)).toContain('loginFailed');
  });
});

describe('VerifySignupEmail', () => {
  test('starts an 18-day trial (21 days left) with an email notification method', async () => {
    const parent = await server.signUpVerifiedParent();
    const row = await parentRow(parent.email);
    expect(row.subscription_status).toBe('trialing');
    expect(row.subscription_status_expiration).toBe(
      toDbTime(new Date(server.clock.now().getTime() + 18 * DAY)),
    );
    const admin = await server.call('GetAdmin', undefined, { token: parent.token });
    expect(admin.body.subscriptionStatus).toEqual({ case: 'trialing', daysLeft: 21 });
    expect(admin.body.verifiedNotificationMethods).toEqual([
      { id: expect.any(String), config: { case: 'email', email: parent.email } },
    ]);
    expect(admin.body.notifications).toEqual([]);
  });

  test('using the token again: already verified, tag emailAlreadyVerified', async () => {
    const email = uniqueEmail();
    await server.call('Signup', { email, password: 'abcd' });
    const token = tokenFrom(server.linkIn(server.lastEmailTo(email), '/verify-signup-email/'));
    expect((await server.call('VerifySignupEmail', { token })).status).toBe(200);
    const again = await server.call('VerifySignupEmail', { token: token.toUpperCase() });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      id: 'f2b70e49',
      type: 'badRequest',
      dashboardTag: 'emailAlreadyVerified',
    });
  });

  test('an expired link of a pending account sends a new email (84a6c609)', async () => {
    const email = uniqueEmail();
    await server.call('Signup', { email, password: 'abcd' });
    const token = tokenFrom(server.linkIn(server.lastEmailTo(email), '/verify-signup-email/'));
    server.clock.advance(24 * HOUR + MINUTE);
    const before = server.mails.length;
    const result = await server.call('VerifySignupEmail', { token });
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ id: '84a6c609', type: 'badRequest' });
    expect(result.body.userMessage).toContain('expired');
    expect(server.mails.length).toBe(before + 1);
    const fresh = tokenFrom(server.linkIn(server.lastEmailTo(email), '/verify-signup-email/'));
    expect((await server.call('VerifySignupEmail', { token: fresh })).status).toBe(200);
  });

  test('an expired link of a verified account: beb1b493 emailAlreadyVerified', async () => {
    const email = uniqueEmail();
    await server.call('Signup', { email, password: 'abcd' });
    const first = tokenFrom(server.linkIn(server.lastEmailTo(email), '/verify-signup-email/'));
    await server.call('Signup', { email, password: 'abcd' });
    const second = tokenFrom(server.linkIn(server.lastEmailTo(email), '/verify-signup-email/'));
    expect((await server.call('VerifySignupEmail', { token: second })).status).toBe(200);
    server.clock.advance(25 * HOUR);
    const result = await server.call('VerifySignupEmail', { token: first });
    expect(result.body).toMatchObject({ id: 'beb1b493', dashboardTag: 'emailAlreadyVerified' });
  });

  test('a used token of a still-pending account resends (6257bfb9)', async () => {
    const email = uniqueEmail();
    await server.call('Signup', { email, password: 'abcd' });
    const token = tokenFrom(server.linkIn(server.lastEmailTo(email), '/verify-signup-email/'));
    const row = await parentRow(email);
    await server.db
      .updateTable('one_time_tokens')
      .set({ used_at: toDbTime(server.clock.now()) })
      .where('parent_id', '=', row.id)
      .execute();
    const before = server.mails.length;
    const result = await server.call('VerifySignupEmail', { token });
    expect(result.body).toMatchObject({ id: '6257bfb9', type: 'badRequest' });
    expect(result.body).not.toHaveProperty('dashboardTag');
    expect(server.mails.length).toBe(before + 1);
  });

  test('an unknown token is notFound', async () => {
    const result = await server.call('VerifySignupEmail', {
      token: '0b7c2d8e-0000-4000-8000-000000000000',
    });
    expect(result.status).toBe(404);
    expect(result.body).toMatchObject({ id: '6ac1205a', type: 'notFound' });
  });

  test('a token of another purpose cannot verify', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('RequestMagicLink', { email: parent.email });
    const magic = tokenFrom(server.linkIn(server.lastEmailTo(parent.email, 'magic-link'), '/otp/'));
    const result = await server.call('VerifySignupEmail', { token: magic });
    expect(result.status).toBe(404);
  });
});

describe('Login', () => {
  test('email/password login records a login event with the IP', async () => {
    const parent = await server.signUpVerifiedParent();
    const result = await server.call('Login', {
      email: ` ${parent.email.toUpperCase()} `,
      password: parent.password,
    });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      adminId: parent.adminId,
      token: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(await events(parent.adminId)).toContainEqual({
      event: 'login',
      detail: 'using email/password',
      ip_address: '127.0.0.1',
    });
  });

  test('a wrong password and an unknown email answer the same', async () => {
    const parent = await server.signUpVerifiedParent();
    const wrong = await server.call('Login', { email: parent.email, password: 'nope' });
    const unknown = await server.call('Login', { email: uniqueEmail(), password: 'nope' });
    for (const result of [wrong, unknown]) {
      expect(result.status).toBe(401);
      expect(result.body).toMatchObject({
        id: '1e087878',
        type: 'unauthorized',
        userMessage: 'Incorrect email or password',
      });
    }
    expect(await events(parent.adminId)).toContainEqual(
      expect.objectContaining({ event: 'loginFailed', detail: 'incorrect password' }),
    );
  });

  test('a pending account is refused before the password and gets a new email', async () => {
    const email = uniqueEmail();
    await server.call('Signup', { email, password: 'abcd' });
    const before = server.mails.length;
    const result = await server.call('Login', { email, password: 'not even right' });
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ id: '4b5bbea0', type: 'unauthorized' });
    expect(result.body.userMessage).toContain('verified');
    expect(server.mails.length).toBe(before + 1);
    const row = await parentRow(email);
    expect(await events(row.id)).toEqual([]);
    expect(
      await server.db
        .selectFrom('dashboard_sessions')
        .select('id')
        .where('parent_id', '=', row.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('magic links', () => {
  test('an unknown email gets the no-account email and the same success', async () => {
    const email = uniqueEmail();
    const result = await server.call('RequestMagicLink', { email });
    expect(result.body).toEqual({ success: true });
    expect(server.lastEmailTo(email).template).toBe('magic-link-no-account');
  });

  test('an invalid email is 400', async () => {
    const result = await server.call('RequestMagicLink', { email: 'nope' });
    expect(result.status).toBe(400);
  });

  test('a link logs in once, keeps a relative redirect and records the login', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('RequestMagicLink', {
      email: parent.email,
      redirect: '/children/123?tab=keys',
    });
    const link = server.linkIn(server.lastEmailTo(parent.email, 'magic-link'), '/otp/');
    expect(link.searchParams.get('redirect')).toBe('/children/123?tab=keys');
    const token = tokenFrom(link);
    const login = await server.call('LoginMagicLink', { token });
    expect(login.status).toBe(200);
    expect(login.body.adminId).toBe(parent.adminId);
    expect((await server.call('GetAdmin', undefined, { token: login.body.token })).status).toBe(
      200,
    );
    expect(await events(parent.adminId)).toContainEqual(
      expect.objectContaining({ event: 'login', detail: 'using magic link' }),
    );
    const again = await server.call('LoginMagicLink', { token });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({
      id: '9a314d21',
      type: 'unauthorized',
      dashboardTag: 'magicLinkTokenNotFound',
    });
  });

  test.each(['//evil.example/x', 'https://evil.example/', 'children/1', '/\\evil.example'])(
    'redirect %s is dropped',
    async (redirect) => {
      const parent = await server.signUpVerifiedParent();
      await server.call('RequestMagicLink', { email: parent.email, redirect });
      const link = server.linkIn(server.lastEmailTo(parent.email, 'magic-link'), '/otp/');
      expect(link.search).toBe('');
    },
  );

  test('a link expires after 60 minutes', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('RequestMagicLink', { email: parent.email });
    const token = tokenFrom(server.linkIn(server.lastEmailTo(parent.email, 'magic-link'), '/otp/'));
    server.clock.advance(60 * MINUTE + 1000);
    const result = await server.call('LoginMagicLink', { token });
    expect(result.body.id).toBe('9a314d21');
  });

  test('a pending account gets a verification email instead, and no magic link', async () => {
    const email = uniqueEmail();
    await server.call('Signup', { email, password: 'abcd' });
    const result = await server.call('RequestMagicLink', { email });
    expect(result.body).toEqual({ success: true });
    expect(server.lastEmailTo(email).template).toBe('initial-signup');
    const row = await parentRow(email);
    const magic = await server.db
      .selectFrom('one_time_tokens')
      .select('id')
      .where('parent_id', '=', row.id)
      .where('purpose', '=', 'magicLink')
      .execute();
    expect(magic).toEqual([]);
  });

  test('tokens of other purposes and unknown tokens are refused', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('SendPasswordResetEmail', { email: parent.email });
    const reset = tokenFrom(
      server.linkIn(server.lastEmailTo(parent.email, 'password-reset'), '/reset-password/'),
    );
    for (const token of [reset, '11111111-2222-4333-8444-555555555555']) {
      const result = await server.call('LoginMagicLink', { token });
      expect(result.body).toMatchObject({ id: '9a314d21', dashboardTag: 'magicLinkTokenNotFound' });
    }
  });
});

describe('password reset', () => {
  test('an unknown email gets the no-account email', async () => {
    const email = uniqueEmail();
    const result = await server.call('SendPasswordResetEmail', { email });
    expect(result.body).toEqual({ success: true });
    expect(server.lastEmailTo(email).template).toBe('password-reset-no-account');
  });

  test('a reset changes the password once and revokes every session', async () => {
    const parent = await server.signUpVerifiedParent();
    const other = await server.call('Login', { email: parent.email, password: parent.password });
    expect((await server.call('SendPasswordResetEmail', { email: parent.email })).body).toEqual({
      success: true,
    });
    expect((await events(parent.adminId)).map((e) => e.event)).toContain('passwordResetRequested');
    const token = tokenFrom(
      server.linkIn(server.lastEmailTo(parent.email, 'password-reset'), '/reset-password/'),
    );

    const short = await server.call('ResetPassword', { token, password: 'abcd' });
    expect(short.status).toBe(400);

    const result = await server.call('ResetPassword', { token, password: 'new password' });
    expect(result.body).toEqual({ success: true });
    for (const session of [parent.token, other.body.token]) {
      expect((await server.call('GetAdmin', undefined, { token: session })).body.id).toBe(
        '8df93d61',
      );
    }
    expect(
      (await server.call('Login', { email: parent.email, password: parent.password })).status,
    ).toBe(401);
    expect(
      (await server.call('Login', { email: parent.email, password: 'new password' })).status,
    ).toBe(200);
    expect((await events(parent.adminId)).map((e) => e.event)).toContain('passwordChanged');

    const again = await server.call('ResetPassword', { token, password: 'another one' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: false });
  });

  test('a reset ends every magic link and other reset link issued before it', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('RequestMagicLink', { email: parent.email });
    const magicToken = tokenFrom(
      server.linkIn(server.lastEmailTo(parent.email, 'magic-link'), '/otp/'),
    );
    await server.call('SendPasswordResetEmail', { email: parent.email });
    const olderReset = tokenFrom(
      server.linkIn(server.lastEmailTo(parent.email, 'password-reset'), '/reset-password/'),
    );
    await server.call('SendPasswordResetEmail', { email: parent.email });
    const reset = tokenFrom(
      server.linkIn(server.lastEmailTo(parent.email, 'password-reset'), '/reset-password/'),
    );

    expect(
      (await server.call('ResetPassword', { token: reset, password: 'new one' })).body,
    ).toEqual({ success: true });
    const magic = await server.call('LoginMagicLink', { token: magicToken });
    expect(magic.status).toBe(401);
    expect(magic.body.dashboardTag).toBe('magicLinkTokenNotFound');
    expect(
      (await server.call('ResetPassword', { token: olderReset, password: 'attacker' })).body,
    ).toEqual({ success: false });
    expect((await server.call('Login', { email: parent.email, password: 'new one' })).status).toBe(
      200,
    );
    // a link asked for after the reset works
    await server.call('RequestMagicLink', { email: parent.email });
    const fresh = tokenFrom(server.linkIn(server.lastEmailTo(parent.email, 'magic-link'), '/otp/'));
    expect((await server.call('LoginMagicLink', { token: fresh })).status).toBe(200);
  });

  test('an expired or unknown token is a soft failure', async () => {
    const parent = await server.signUpVerifiedParent();
    await server.call('SendPasswordResetEmail', { email: parent.email });
    const token = tokenFrom(
      server.linkIn(server.lastEmailTo(parent.email, 'password-reset'), '/reset-password/'),
    );
    server.clock.advance(61 * MINUTE);
    expect((await server.call('ResetPassword', { token, password: 'new password' })).body).toEqual({
      success: false,
    });
    expect(
      (
        await server.call('ResetPassword', {
          token: '11111111-2222-4333-8444-555555555555',
          password: 'new password',
        })
      ).body,
    ).toEqual({ success: false });
    expect(
      (await server.call('Login', { email: parent.email, password: parent.password })).status,
    ).toBe(200);
  });
});

describe('SaveConferenceEmail', () => {
  test('stores the lowercased email with its source', async () => {
    const email = uniqueEmail('visitor');
    const result = await server.call('SaveConferenceEmail', {
      email: email.toUpperCase(),
      source: 'workshop',
    });
    expect(result.body).toEqual({ success: true });
    const row = await server.db
      .selectFrom('conference_emails')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    expect(row?.source).toBe('workshop');
  });

  test('an invalid email or source is 400', async () => {
    expect((await server.call('SaveConferenceEmail', { email: 'x', source: 'booth' })).status).toBe(
      400,
    );
    const badSource = await server.call('SaveConferenceEmail', {
      email: 'a@example.com',
      source: 'party',
    });
    expect(badSource.status).toBe(400);
    expect(badSource.body.userMessage).toBe('The source must be one of: workshop, booth.');
  });
});
