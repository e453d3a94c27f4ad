import { existsSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'otplib';
import { describe, expect, test } from 'vitest';
import { ONLY_THE_OWNER_MESSAGE } from '../src/pairql/roles.ts';
import { DAY } from '../src/db/values.ts';
import { INVITATION_NOT_VALID_MESSAGE } from '../src/operations/dashboard/AcceptParentInvite.ts';
import { dataExportsSettled } from '../src/exports/data-export.ts';
import { notificationsDelivered } from '../src/notifications/child-writes.ts';
import { localExportFile } from '../src/services/storage.ts';
import { newToken } from '../src/services/tokens.ts';
import { connectedMac, inviteCoParent, newChildInput, serverWithParents } from './fixtures.ts';

// Issue 12: co-parents. Runs on SQLite and, with TEST_DATABASE_URL, on PostgreSQL.

const { server, alice, bob } = await serverWithParents();

const coEmail = () => `co-${newToken().slice(0, 8)}@example.com`;

function inviteTokenOf(email: string) {
  const link = server.linkIn(server.lastEmailTo(email, 'parent-invite'), '/parent-invite/');
  return link.pathname.split('/').at(-1)!;
}

describe('inviting and accepting', () => {
  test('the owner invites; the invitee sets a password from the emailed link and is signed in', async () => {
    const email = coEmail();
    const invited = await server.call('InviteParent', { email }, { token: alice.token });
    expect(invited.body).toEqual({ success: true });
    const mail = server.lastEmailTo(email, 'parent-invite');
    expect(mail.subject).toContain(alice.email);

    const listed = await server.call('GetParents', undefined, { token: alice.token });
    expect(listed.body).toEqual([
      { id: alice.adminId, email: alice.email, role: 'owner', status: 'active' },
      { id: expect.any(String), email, role: 'coParent', status: 'invited' },
    ]);

    const accepted = await server.call('AcceptParentInvite', {
      token: inviteTokenOf(email),
      password: 'a good password',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.adminId).toBe(alice.adminId);
    const admin = await server.call('GetAdmin', undefined, { token: accepted.body.token });
    expect(admin.body.id).toBe(alice.adminId);
    expect(admin.body.role).toBe('coParent');
    // the owner's GetAdmin is unchanged (no role field: the reference shape)
    const ownerAdmin = await server.call('GetAdmin', undefined, { token: alice.token });
    expect(ownerAdmin.body.role).toBeUndefined();

    const after = await server.call('GetParents', undefined, { token: accepted.body.token });
    expect(after.body[1]).toMatchObject({ email, status: 'active' });
  });

  test('an invitation link works once and for 7 days only', async () => {
    const email = coEmail();
    await server.call('InviteParent', { email }, { token: alice.token });
    const token = inviteTokenOf(email);
    server.clock.advance(7 * DAY + 1000);
    const late = await server.call('AcceptParentInvite', { token, password: 'a good password' });
    expect(late.status).toBe(401);
    expect(late.body.userMessage).toBe(INVITATION_NOT_VALID_MESSAGE);

    // resend: a new link
    await server.call('InviteParent', { email }, { token: alice.token });
    const fresh = inviteTokenOf(email);
    expect(fresh).not.toBe(token);
    expect(
      (await server.call('AcceptParentInvite', { token: fresh, password: 'pw pw pw pw' })).status,
    ).toBe(200);
    const again = await server.call('AcceptParentInvite', {
      token: fresh,
      password: 'pw pw pw pw',
    });
    expect(again.status).toBe(401);
  });

  test('a revoked invitation cannot be accepted', async () => {
    const email = coEmail();
    await server.call('InviteParent', { email }, { token: alice.token });
    const token = inviteTokenOf(email);
    const people = await server.call('GetParents', undefined, { token: alice.token });
    const invited = people.body.find((p: { email: string }) => p.email === email);
    expect(
      (await server.call('RemoveParent', { id: invited.id }, { token: alice.token })).body,
    ).toEqual({
      success: true,
    });
    const accepted = await server.call('AcceptParentInvite', {
      token,
      password: 'a good password',
    });
    expect(accepted.status).toBe(401);
    const after = await server.call('GetParents', undefined, { token: alice.token });
    expect(after.body.map((p: { email: string }) => p.email)).not.toContain(email);
  });

  test('bad input is a 4xx with a parent-friendly message', async () => {
    const bad = await server.call(
      'InviteParent',
      { email: 'not an email' },
      { token: alice.token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.userMessage).toBeTruthy();
    const short = await server.call('AcceptParentInvite', { token: newToken(), password: 'x' });
    expect(short.status).toBe(400);
    const unknown = await server.call('AcceptParentInvite', {
      token: newToken(),
      password: 'long enough password',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.userMessage).toBe(INVITATION_NOT_VALID_MESSAGE);
  });

  test('an email belongs to one person only', async () => {
    // another account's email, the owner's own, another family's co-parent
    const other = await server.call('InviteParent', { email: bob.email }, { token: alice.token });
    expect([other.status, other.body.type]).toEqual([400, 'badRequest']);
    const own = await server.call('InviteParent', { email: alice.email }, { token: alice.token });
    expect(own.status).toBe(400);
    const bobsCo = await inviteCoParent(server, bob);
    const taken = await server.call(
      'InviteParent',
      { email: bobsCo.email },
      { token: alice.token },
    );
    expect(taken.status).toBe(400);
    // already active in this family
    const alicesCo = await inviteCoParent(server, alice);
    const twice = await server.call(
      'InviteParent',
      { email: alicesCo.email },
      { token: alice.token },
    );
    expect(twice.status).toBe(400);
    expect(twice.body.userMessage).toBe('This person is already a parent of your family.');

    // a co-parent's email never becomes an account of its own
    const signup = await server.call('Signup', { email: bobsCo.email, password: 'whatever pw' });
    expect(signup.body).toEqual({});
    const accounts = await server.db
      .selectFrom('parents')
      .select('id')
      .where('email', '=', bobsCo.email)
      .execute();
    expect(accounts).toEqual([]);
  });
});

describe('a co-parent', () => {
  test('sees and changes the family data', async () => {
    const co = await inviteCoParent(server, alice);
    const child = newChildInput({ name: 'Sam' });
    expect((await server.call('SaveUser', child, { token: alice.token })).status).toBe(200);
    const users = await server.call('GetUsers', undefined, { token: co.token });
    expect(users.body.map((u: { name: string }) => u.name)).toContain('Sam');

    const renamed = await server.call(
      'SaveUser',
      { ...child, isNew: false, name: 'Samuel', screenshotsEnabled: true },
      { token: co.token },
    );
    expect(renamed.status).toBe(200);
    const seen = await server.call('GetUser', child.id, { token: alice.token });
    expect(seen.body.name).toBe('Samuel');
  });

  test('approves an unlock request of a child of the family', async () => {
    const co = await inviteCoParent(server, alice);
    const mac = await connectedMac(server, alice.adminId);
    const requests = await server.call(
      'CreateUnlockRequests_v3',
      { blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'khanacademy.org' }] },
      { namespace: 'macos-app', token: mac.token },
    );
    expect(requests.status).toBe(200);
    const [id] = requests.body as string[];
    const decided = await server.call(
      'UpdateUnlockRequest',
      { id, status: 'accepted' },
      { token: co.token },
    );
    expect(decided.body).toEqual({ success: true });
  });

  test('cannot reach billing, delete the account, or manage parents', async () => {
    const co = await inviteCoParent(server, alice);
    const attempts: [string, unknown][] = [
      ['StripeUrl', undefined],
      ['HandleCheckoutSuccess', { stripeCheckoutSessionId: 'cs_1' }],
      ['HandleCheckoutCancel', { stripeCheckoutSessionId: 'cs_1' }],
      ['DeleteEntity_v2', { type: 'parent', id: alice.adminId }],
      ['InviteParent', { email: coEmail() }],
      ['RemoveParent', { id: alice.adminId }],
      ['RemoveParent', { id: co.personId }],
    ];
    for (const [op, input] of attempts) {
      const result = await server.call(op, input, { token: co.token });
      expect([op, result.status, result.body.type], op).toEqual([op, 401, 'unauthorized']);
      expect(result.body.userMessage, op).toBe(ONLY_THE_OWNER_MESSAGE);
    }
    const account = await server.call('GetAdmin', undefined, { token: alice.token });
    expect(account.status).toBe(200);
    // other deletions stay open to co-parents
    const child = newChildInput({ name: 'Temp' });
    await server.call('SaveUser', child, { token: alice.token });
    const deleted = await server.call(
      'DeleteEntity_v2',
      { type: 'child', id: child.id },
      { token: co.token },
    );
    expect(deleted.body).toEqual({ success: true });
  });

  test('the owner cannot be removed', async () => {
    const result = await server.call('RemoveParent', { id: alice.adminId }, { token: alice.token });
    expect(result.status).toBe(400);
    expect(result.body.userMessage).toBe("The account owner can't be removed.");
  });

  test('logs in with their own email and password, by magic link, and resets their password', async () => {
    const co = await inviteCoParent(server, alice);
    const wrong = await server.call('Login', { email: co.email, password: 'not it at all' });
    expect(wrong.status).toBe(401);
    const login = await server.call('Login', { email: co.email, password: co.password });
    expect(login.status).toBe(200);
    expect(login.body.adminId).toBe(alice.adminId);
    const admin = await server.call('GetAdmin', undefined, { token: login.body.token });
    expect(admin.body.role).toBe('coParent');

    await server.call('RequestMagicLink', { email: co.email });
    const magic = server.linkIn(server.lastEmailTo(co.email, 'magic-link'), '/otp/');
    const viaLink = await server.call('LoginMagicLink', {
      token: magic.pathname.split('/').at(-1),
    });
    expect(viaLink.status).toBe(200);
    const linkAdmin = await server.call('GetAdmin', undefined, { token: viaLink.body.token });
    expect(linkAdmin.body.role).toBe('coParent');

    await server.call('SendPasswordResetEmail', { email: co.email });
    const reset = server.linkIn(server.lastEmailTo(co.email, 'password-reset'), '/reset-password/');
    const changed = await server.call('ResetPassword', {
      token: reset.pathname.split('/').at(-1),
      password: 'a new co password',
    });
    expect(changed.body).toEqual({ success: true });
    // their sessions ended; the owner's did not
    expect((await server.call('GetAdmin', undefined, { token: co.token })).status).toBe(401);
    expect((await server.call('GetAdmin', undefined, { token: alice.token })).status).toBe(200);
    const relogin = await server.call('Login', { email: co.email, password: 'a new co password' });
    expect(relogin.status).toBe(200);
    // the owner's password is untouched
    const ownerLogin = await server.call('Login', {
      email: alice.email,
      password: 'correct horse',
    });
    expect(ownerLogin.status).toBe(200);
  });

  test('loses access at once when removed', async () => {
    const co = await inviteCoParent(server, alice);
    expect((await server.call('GetUsers', undefined, { token: co.token })).status).toBe(200);
    const removed = await server.call('RemoveParent', { id: co.personId }, { token: alice.token });
    expect(removed.body).toEqual({ success: true });
    const after = await server.call('GetUsers', undefined, { token: co.token });
    expect([after.status, after.body.type]).toEqual([401, 'loggedOut']);
    const login = await server.call('Login', { email: co.email, password: co.password });
    expect(login.status).toBe(401);
    // another family cannot remove her co-parents
    const co2 = await inviteCoParent(server, alice);
    const foreign = await server.call('RemoveParent', { id: co2.personId }, { token: bob.token });
    expect(foreign.status).toBe(404);
    expect((await server.call('GetUsers', undefined, { token: co2.token })).status).toBe(200);
  });

  test('has notification rules and methods of their own', async () => {
    const co = await inviteCoParent(server, alice);
    const created = await server.call(
      'CreatePendingNotificationMethod',
      { case: 'email', email: co.email },
      { token: co.token },
    );
    expect(created.status).toBe(200);
    const code = Number(
      /\d{6}/.exec(server.lastEmailTo(co.email, 'verify-notification-email').text)![0],
    );
    const confirmed = await server.call(
      'ConfirmPendingNotificationMethod',
      { id: created.body.methodId, code },
      { token: co.token },
    );
    expect(confirmed.body).toEqual({ success: true });
    const ruleId = newToken();
    const saved = await server.call(
      'SaveNotification',
      {
        id: ruleId,
        isNew: true,
        methodId: created.body.methodId,
        trigger: 'unlockRequestSubmitted',
      },
      { token: co.token },
    );
    expect(saved.body).toEqual({ success: true });

    const coAdmin = await server.call('GetAdmin', undefined, { token: co.token });
    expect(coAdmin.body.notifications.map((n: { id: string }) => n.id)).toEqual([ruleId]);
    expect(coAdmin.body.verifiedNotificationMethods.map((m: { id: string }) => m.id)).toEqual([
      created.body.methodId,
    ]);
    const ownerAdmin = await server.call('GetAdmin', undefined, { token: alice.token });
    expect(ownerAdmin.body.notifications.map((n: { id: string }) => n.id)).not.toContain(ruleId);
    // the family holds a method once: the owner cannot add the co-parent's address again
    const same = await server.call(
      'CreatePendingNotificationMethod',
      { case: 'email', email: co.email },
      { token: alice.token },
    );
    expect([same.status, same.body.userMessage]).toEqual([
      400,
      'Another parent of your family already uses this notification method.',
    ]);
    // the owner cannot delete the co-parent's rule: refused like a missing one
    const asOwner = await server.call(
      'DeleteEntity_v2',
      { type: 'parentNotification', id: ruleId },
      { token: alice.token },
    );
    expect(asOwner.status).toBe(404);

    // a request notifies the co-parent through their rule
    const mac = await connectedMac(server, alice.adminId);
    const sentBefore = server.mails.length;
    await server.call(
      'CreateUnlockRequests_v3',
      { blockedRequests: [{ bundleId: 'com.apple.Safari', hostname: 'example.org' }] },
      { namespace: 'macos-app', token: mac.token },
    );
    await notificationsDelivered();
    expect(server.mails.slice(sentBefore).map((mail) => mail.to)).toContain(co.email);
  });
});

describe("a co-parent's own second factor", () => {
  test('Login and a magic link answer a challenge; LoginSecondFactor signs in the co-parent', async () => {
    const co = await inviteCoParent(server, alice);
    const started = await server.call('StartTotpEnrolment', undefined, { token: co.token });
    expect(started.status).toBe(200);
    const codeNow = (steps = 0) =>
      generate({
        secret: started.body.secret,
        epoch: Math.floor(server.clock.now().getTime() / 1000) + steps * 30,
      });
    const confirmed = await server.call(
      'ConfirmTotpEnrolment',
      { code: await codeNow() },
      { token: co.token },
    );
    expect(confirmed.status).toBe(200);
    server.clock.advance(30_000);

    const login = await server.call('Login', { email: co.email, password: co.password });
    expect(login.status).toBe(200);
    expect(login.body.token).toBeUndefined();
    const second = await server.call('LoginSecondFactor', {
      challenge: login.body.secondFactorChallenge,
      code: await codeNow(),
    });
    expect(second.status).toBe(200);
    const admin = await server.call('GetAdmin', undefined, { token: second.body.token });
    expect(admin.body.role).toBe('coParent');

    await server.call('RequestMagicLink', { email: co.email });
    const magic = server.linkIn(server.lastEmailTo(co.email, 'magic-link'), '/otp/');
    const viaLink = await server.call('LoginMagicLink', {
      token: magic.pathname.split('/').at(-1),
    });
    expect(viaLink.body.secondFactorChallenge).toBeDefined();
    // the owner has no second factor: unchanged
    const owner = await server.call('Login', { email: alice.email, password: 'correct horse' });
    expect(owner.body.token).toBeDefined();
  });
});

describe('a password reset belongs to one person', () => {
  const tokenIn = (email: string, template: 'magic-link' | 'password-reset') => {
    const prefix = template === 'magic-link' ? '/otp/' : '/reset-password/';
    return server.linkIn(server.lastEmailTo(email, template), prefix).pathname.split('/').at(-1)!;
  };
  const signedIn = async (token: string) =>
    (await server.call('GetAdmin', undefined, { token })).status;

  /** A fresh family (its owner's password changes here) with one co-parent; each holds a magic
   * link and a reset link asked for before the reset under test. */
  async function familyWithLinks() {
    const owner = await server.signUpVerifiedParent();
    const co = await inviteCoParent(server, owner);
    const links = new Map<string, { magic: string; reset: string }>();
    for (const email of [owner.email, co.email]) {
      await server.call('RequestMagicLink', { email });
      await server.call('SendPasswordResetEmail', { email });
      links.set(email, {
        magic: tokenIn(email, 'magic-link'),
        reset: tokenIn(email, 'password-reset'),
      });
    }
    return { owner, co, ownerLinks: links.get(owner.email)!, coLinks: links.get(co.email)! };
  }

  test("the owner's reset signs out the owner only and spends the owner's links only", async () => {
    const { owner, co, ownerLinks, coLinks } = await familyWithLinks();
    await server.call('SendPasswordResetEmail', { email: owner.email });
    const changed = await server.call('ResetPassword', {
      token: tokenIn(owner.email, 'password-reset'),
      password: 'the new owner password',
    });
    expect(changed.body).toEqual({ success: true });

    expect(await signedIn(owner.token)).toBe(401);
    expect(await signedIn(co.token)).toBe(200);
    // the owner's older links are spent
    expect((await server.call('LoginMagicLink', { token: ownerLinks.magic })).status).toBe(401);
    expect(
      (await server.call('ResetPassword', { token: ownerLinks.reset, password: 'not this one' }))
        .body,
    ).toEqual({ success: false });
    // the co-parent's still work, and sign in the co-parent
    const coMagic = await server.call('LoginMagicLink', { token: coLinks.magic });
    expect(coMagic.status).toBe(200);
    expect(
      (await server.call('GetAdmin', undefined, { token: coMagic.body.token })).body.role,
    ).toBe('coParent');
    expect(
      (await server.call('ResetPassword', { token: coLinks.reset, password: 'co reset later' }))
        .body,
    ).toEqual({ success: true });
    expect(
      (await server.call('Login', { email: owner.email, password: 'the new owner password' }))
        .status,
    ).toBe(200);
  });

  test("a co-parent's reset signs out that co-parent only and spends that co-parent's links only", async () => {
    const { owner, co, ownerLinks, coLinks } = await familyWithLinks();
    const otherCo = await inviteCoParent(server, owner);
    await server.call('SendPasswordResetEmail', { email: co.email });
    const mail = server.lastEmailTo(co.email, 'password-reset');
    expect(mail.to).toBe(co.email);
    const changed = await server.call('ResetPassword', {
      token: tokenIn(co.email, 'password-reset'),
      password: 'the new co-parent password',
    });
    expect(changed.body).toEqual({ success: true });

    expect(await signedIn(co.token)).toBe(401);
    expect(await signedIn(owner.token)).toBe(200);
    expect(await signedIn(otherCo.token)).toBe(200);
    // the co-parent's older links are spent
    expect((await server.call('LoginMagicLink', { token: coLinks.magic })).status).toBe(401);
    expect(
      (await server.call('ResetPassword', { token: coLinks.reset, password: 'not this one' })).body,
    ).toEqual({ success: false });
    // the new password signs in the co-parent; the old one no longer does
    expect((await server.call('Login', { email: co.email, password: co.password })).status).toBe(
      401,
    );
    const login = await server.call('Login', {
      email: co.email,
      password: 'the new co-parent password',
    });
    expect(login.status).toBe(200);
    expect(login.body.adminId).toBe(owner.adminId);
    expect((await server.call('GetAdmin', undefined, { token: login.body.token })).body.role).toBe(
      'coParent',
    );
    // the owner's password and links are untouched
    expect(
      (await server.call('Login', { email: owner.email, password: owner.password })).status,
    ).toBe(200);
    expect((await server.call('LoginMagicLink', { token: ownerLinks.magic })).status).toBe(200);
    expect(
      (
        await server.call('ResetPassword', {
          token: ownerLinks.reset,
          password: 'owner reset later',
        })
      ).body,
    ).toEqual({ success: true });
    const events = await server.db
      .selectFrom('security_events')
      .select(['event', 'detail'])
      .where('parent_id', '=', owner.adminId)
      .where('event', '=', 'passwordChanged')
      .execute();
    expect(events).toContainEqual({ event: 'passwordChanged', detail: `co-parent ${co.email}` });
  });
});

describe('removing a co-parent ends everything they hold (issue 19)', () => {
  const tokenIn = (email: string, template: 'magic-link' | 'password-reset') => {
    const prefix = template === 'magic-link' ? '/otp/' : '/reset-password/';
    return server.linkIn(server.lastEmailTo(email, template), prefix).pathname.split('/').at(-1)!;
  };
  const download = (url: string) => {
    const parsed = new URL(url);
    return server.app.inject({ method: 'GET', url: `${parsed.pathname}${parsed.search}` });
  };
  const rowsOf = async (personId: string) => {
    const counts: Record<string, number> = {};
    for (const table of [
      'dashboard_sessions',
      'one_time_tokens',
      'notification_methods',
      'notifications',
      'totp_factors',
      'recovery_codes',
      'second_factor_challenges',
      'data_exports',
    ] as const) {
      const rows = await server.db
        .selectFrom(table)
        .select('person_id')
        .where('person_id', '=', personId)
        .execute();
      counts[table] = rows.length;
    }
    return counts;
  };

  /** An export of the whole family held by the co-parent, as co-parents could ask for before. */
  async function exportHeldBy(owner: { token: string }, personId: string) {
    const requested = await server.call('RequestDataExport', undefined, { token: owner.token });
    expect(requested.status).toBe(200);
    await dataExportsSettled();
    const { exportId } = requested.body as { exportId: string };
    const ready = await server.call('GetDataExport', { exportId }, { token: owner.token });
    expect(ready.body.status).toBe('ready');
    await server.db
      .updateTable('data_exports')
      .set({ person_id: personId })
      .where('id', '=', exportId)
      .execute();
    expect((await download(ready.body.url)).statusCode).toBe(200);
    return { exportId, url: ready.body.url as string };
  }

  test('sessions, links, second factor, notification methods and the data export link, at once', async () => {
    const owner = await server.signUpVerifiedParent();
    const co = await inviteCoParent(server, owner);
    const started = await server.call('StartTotpEnrolment', undefined, { token: co.token });
    const confirmed = await server.call(
      'ConfirmTotpEnrolment',
      {
        code: await generate({
          secret: started.body.secret,
          epoch: Math.floor(server.clock.now().getTime() / 1000),
        }),
      },
      { token: co.token },
    );
    expect(confirmed.status).toBe(200);
    server.clock.advance(30_000);
    const pending = await server.call('Login', { email: co.email, password: co.password });
    expect(pending.body.secondFactorChallenge).toBeDefined();
    await server.call('RequestMagicLink', { email: co.email });
    await server.call('SendPasswordResetEmail', { email: co.email });
    const magic = tokenIn(co.email, 'magic-link');
    const reset = tokenIn(co.email, 'password-reset');
    const method = await server.call(
      'CreatePendingNotificationMethod',
      { case: 'email', email: co.email },
      { token: co.token },
    );
    expect(method.status).toBe(200);
    const held = await exportHeldBy(owner, co.personId);
    const zip = localExportFile(path.join(server.config.dataDir, 'exports'), held.exportId);
    expect(existsSync(zip)).toBe(true);
    expect(await rowsOf(co.personId)).toMatchObject({
      dashboard_sessions: 1,
      totp_factors: 1,
      recovery_codes: 10,
      second_factor_challenges: 1,
      data_exports: 1,
    });

    const removed = await server.call('RemoveParent', { id: co.personId }, { token: owner.token });
    expect(removed.body).toEqual({ success: true });

    // the export link answers like a missing export, and its ZIP is gone
    const refused = await download(held.url);
    expect(refused.statusCode).toBe(404);
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'notFound', entityName: 'Data export' });
    expect(existsSync(zip)).toBe(false);
    // no session, no link, no second step, no sign-in
    expect((await server.call('GetAdmin', undefined, { token: co.token })).status).toBe(401);
    expect((await server.call('LoginMagicLink', { token: magic })).status).toBe(401);
    const resetAfter = await server.call('ResetPassword', { token: reset, password: 'taken over' });
    expect(resetAfter.body).toEqual({ success: false });
    const second = await server.call('LoginSecondFactor', {
      challenge: pending.body.secondFactorChallenge,
      code: confirmed.body.recoveryCodes[0],
    });
    expect(second.status).toBe(401);
    expect((await server.call('Login', { email: co.email, password: co.password })).status).toBe(
      401,
    );
    // nothing of theirs is left behind
    expect(Object.values(await rowsOf(co.personId)).every((count) => count === 0)).toBe(true);
    // the owner is untouched
    expect((await server.call('GetAdmin', undefined, { token: owner.token })).status).toBe(200);
  });

  test('an export link serves only while the person who asked is still a parent of the family', async () => {
    const owner = await server.signUpVerifiedParent();
    const co = await inviteCoParent(server, owner);
    const held = await exportHeldBy(owner, co.personId);
    // however the co-parent stopped being one (here: the row went without RemoveParent)
    await server.db.deleteFrom('co_parents').where('id', '=', co.personId).execute();
    expect((await download(held.url)).statusCode).toBe(404);
  });

  test('a co-parent cannot export the whole family; the owner can', async () => {
    const owner = await server.signUpVerifiedParent();
    const co = await inviteCoParent(server, owner);
    const asked = await server.call('RequestDataExport', undefined, { token: co.token });
    expect(asked.status).toBe(401);
    expect(asked.body.userMessage).toBe(ONLY_THE_OWNER_MESSAGE);
    const ownExport = await server.call('RequestDataExport', undefined, { token: owner.token });
    expect(ownExport.status).toBe(200);
    await dataExportsSettled();
    const read = await server.call(
      'GetDataExport',
      { exportId: ownExport.body.exportId },
      { token: co.token },
    );
    expect(read.status).toBe(401);
    expect(read.body.userMessage).toBe(ONLY_THE_OWNER_MESSAGE);
    const exports = await server.db
      .selectFrom('data_exports')
      .select('person_id')
      .where('parent_id', '=', owner.adminId)
      .execute();
    expect(exports).toEqual([{ person_id: owner.adminId }]);
  });
});
