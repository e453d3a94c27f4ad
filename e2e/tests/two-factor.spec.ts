import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { expectLoginPage, expectSignedIn, logInWithPassword } from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';
import { createVerifiedParent } from '../support/parents.ts';

// Issue 12: two-step sign-in. An authenticator app (codes computed here with otplib, like a phone
// would) and a passkey in Chromium's virtual authenticator (CDP WebAuthn domain).

/** axe finds no serious or critical violation on what the page shows now. */
async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious).toEqual([]);
}

/** The code an authenticator app shows `stepsAhead` periods from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

test('a parent turns on an authenticator app, then signs in with the password and a code', async ({
  page,
  request,
  mailbox,
}) => {
  const parent = await createVerifiedParent(request, mailbox, 'totp');
  await page.goto('/login');
  await logInWithPassword(page, parent.email, parent.password);
  await expectSignedIn(page);

  await page.goto('/settings');
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expectAccessible(page);
  const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await page.getByLabel('Code from the app').fill(await codeFor(secret));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();

  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expectAccessible(page);
  await expect(page.getByRole('link', { name: 'Download codes' })).toBeVisible();
  await page.getByRole('button', { name: 'I saved my codes' }).click();
  await expect(page.getByText('On. 10 recovery codes left.')).toBeVisible();
  const enabled = await mailbox.waitFor({ to: parent.email, subject: /Two-step sign-in is on/ });
  expect(enabled.subject).toMatch(/Two-step sign-in is on/);

  await page.getByRole('link', { name: 'Log out' }).first().click();
  await expectLoginPage(page);
  await logInWithPassword(page, parent.email, parent.password);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText("That code didn't work.", { exact: false })).toBeVisible();
  // the enrolment code is spent: the next period's code, which the server accepts (one step drift)
  await page.getByLabel('Authentication code').fill(await codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
});

test('a parent adds a passkey, then signs in with it alone', async ({ page, request, mailbox }) => {
  const parent = await createVerifiedParent(request, mailbox, 'passkey');
  // passkeys need a domain name: the same server as http://localhost
  const origin = new URL(process.env.E2E_BASE_URL!);
  const local = `http://localhost:${origin.port}`;

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  await page.goto(`${local}/login`);
  await logInWithPassword(page, parent.email, parent.password);
  await expectSignedIn(page);
  await page.goto(`${local}/settings`);
  await expect(page.getByText('No passkeys yet.')).toBeVisible();
  await page.getByLabel('Passkey name').fill('Test Chromium');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(
    page.getByText('Passkey "Test Chromium" added. You can use it to sign in.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove passkey Test Chromium' })).toBeVisible();
  // the first passkey comes with recovery codes: losing it must not lock the parent out
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = await codes.first().innerText();
  await page.getByRole('button', { name: 'I saved my codes' }).click();
  const added = await mailbox.waitFor({ to: parent.email, subject: /A passkey was added/ });
  expect(added.subject).toMatch(/A passkey was added/);

  await page.getByRole('link', { name: 'Log out' }).first().click();
  await expectLoginPage(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expectSignedIn(page);

  // with a passkey, the password alone is not enough: the second step uses the passkey
  await page.getByRole('link', { name: 'Log out' }).first().click();
  await expectLoginPage(page);
  await logInWithPassword(page, parent.email, parent.password);
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await page.getByRole('button', { name: 'Use my passkey' }).click();
  await expectSignedIn(page);

  // the passkey lost: a recovery code finishes the second step, once
  await page.getByRole('link', { name: 'Log out' }).first().click();
  await expectLoginPage(page);
  await logInWithPassword(page, parent.email, parent.password);
  await page.getByRole('button', { name: 'Lost your passkey? Use a recovery code' }).click();
  await page.getByLabel('Recovery code').fill(recoveryCode);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);
});
