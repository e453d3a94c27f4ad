import { expectLoginPage, expectSettingsFor } from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';
import { createVerifiedParent, magicLink } from '../support/parents.ts';

test('a parent logs in with an emailed magic link and lands on the page they wanted', async ({
  page,
  request,
  mailbox,
}) => {
  const parent = await createVerifiedParent(request, mailbox, 'magic');

  // Signed out, a protected page goes through /logout?redirect=… to the login page.
  await page.goto('/settings');
  await expectLoginPage(page);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings$/);

  const sendMagicLink = page.getByRole('button', { name: 'Send Magic Link' });
  await expect(sendMagicLink).toBeDisabled();
  await page.getByLabel(/email/i).fill(parent.email);
  const since = Date.now();
  await sendMagicLink.click();

  const mail = await mailbox.waitFor({ to: parent.email, link: magicLink, since });
  const link = mail.linkMatching(magicLink);
  expect(new URL(link).searchParams.get('redirect')).toBe('/settings');

  await page.goto(link);
  await expectSettingsFor(page, parent.email);
});

test('a used magic link does not log in twice', async ({ page, browser, request, mailbox }) => {
  const parent = await createVerifiedParent(request, mailbox, 'magic2');
  await page.goto('/login');
  await page.getByLabel(/email/i).fill(parent.email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Send Magic Link' }).click();
  const link = (await mailbox.waitFor({ to: parent.email, link: magicLink, since })).linkMatching(
    magicLink,
  );

  await page.goto(link);
  await expect(page.getByRole('link', { name: 'Log out' }).first()).toBeAttached();

  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(link);
  await expect(
    otherPage.getByText('Magic Link token not found, or expired. Please try again.'),
  ).toBeVisible();
  await other.close();
});
