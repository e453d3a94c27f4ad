import {
  expectLoginPage,
  expectSettingsFor,
  expectSignedIn,
  logInWithPassword,
} from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';
import { createVerifiedParent, resetLink } from '../support/parents.ts';

test('a parent resets their password by email, and older sessions are signed out', async ({
  page,
  browser,
  request,
  mailbox,
}) => {
  const parent = await createVerifiedParent(request, mailbox, 'reset');
  const newPassword = 'second-password-2';

  // Another browser is logged in before the reset.
  const oldContext = await browser.newContext();
  const oldPage = await oldContext.newPage();
  await oldPage.goto('/login');
  await logInWithPassword(oldPage, parent.email, parent.password);
  await expectSignedIn(oldPage);

  await page.goto('/reset-password');
  await page.getByLabel(/email/i).fill(parent.email);
  const since = Date.now();
  await page.getByRole('button', { name: /send|reset/i }).click();

  const mail = await mailbox.waitFor({ to: parent.email, link: resetLink, since });
  await page.goto(mail.linkMatching(resetLink));
  const passwordFields = page.locator('input[type="password"]');
  await expect(passwordFields.first()).toBeVisible();
  for (const field of await passwordFields.all()) await field.fill(newPassword);
  await page.getByRole('button', { name: /reset|save|change|set/i }).click();

  await expectLoginPage(page);
  await expect(
    page.getByText('Password successfully changed! Please log in with your new password.'),
  ).toBeVisible();

  await logInWithPassword(page, parent.email, parent.password);
  await expect(page.getByText('Incorrect email or password')).toBeVisible();

  await page.getByLabel(/^password/i).fill(newPassword);
  await page.getByRole('button', { name: /^(log ?in|sign in)$/i }).click();
  await expectSignedIn(page);
  await page.goto('/settings');
  await expectSettingsFor(page, parent.email);

  // The session from before the reset was revoked: its next action lands on the login page. On a
  // slow run the page's own refresh of its live statuses (every 30 s) may be that action, before
  // the click: then the login page is already there and the link is gone.
  const loginHeading = oldPage.getByRole('heading', { name: 'Parent Login' });
  await Promise.race([
    oldPage
      .getByRole('link', { name: 'Settings', exact: true })
      .click()
      .catch(() => {}),
    loginHeading.waitFor(),
  ]);
  await expectLoginPage(oldPage);
  await oldContext.close();
});

test('a reset link works only once', async ({ page, request, mailbox }) => {
  const parent = await createVerifiedParent(request, mailbox, 'reset2');
  const since = Date.now();
  await page.goto('/reset-password');
  await page.getByLabel(/email/i).fill(parent.email);
  await page.getByRole('button', { name: /send|reset/i }).click();
  const link = (await mailbox.waitFor({ to: parent.email, link: resetLink, since })).linkMatching(
    resetLink,
  );

  for (const attempt of [1, 2]) {
    await page.goto(link);
    const passwordFields = page.locator('input[type="password"]');
    await expect(passwordFields.first()).toBeVisible();
    for (const field of await passwordFields.all()) await field.fill(`password-try-${attempt}`);
    await page.getByRole('button', { name: /reset|save|change|set/i }).click();
    if (attempt === 1) await expectLoginPage(page);
  }
  await expect(
    page.getByText('Token expired or not found. Please request a new password reset link.'),
  ).toBeVisible();
});
