import { expectSettingsFor, expectSignedIn } from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';
import { uniqueEmail, verifyLink } from '../support/parents.ts';

test('a new parent signs up and the emailed verification link logs them in', async ({
  page,
  mailbox,
}) => {
  const email = uniqueEmail('signup');
  await page.goto('/signup');
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill('first-password-1');
  const since = Date.now();
  await page.getByRole('button', { name: /sign ?up|create account|get started/i }).click();

  const mail = await mailbox.waitFor({ to: email, link: verifyLink, since });
  const link = mail.linkMatching(verifyLink);
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);

  // The verification page logs the parent in and asks the signup survey's question.
  await page.goto(link);
  await expect(page).toHaveURL(/\/use-case$/);
  await page.getByRole('radio', { name: /parent/i }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectSignedIn(page);
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  await expectSettingsFor(page, email);
});

test('an unverified parent cannot log in yet', async ({ page, mailbox }) => {
  const email = uniqueEmail('unverified');
  await page.goto('/signup');
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill('first-password-1');
  await page.getByRole('button', { name: /sign ?up|create account|get started/i }).click();
  await mailbox.waitFor({ to: email, link: verifyLink });

  await page.goto('/login');
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill('first-password-1');
  await page.getByRole('button', { name: /^(log ?in|sign in)$/i }).click();
  await expect(page.getByText(/may not login until your email is verified/i)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Parent Login' })).toBeVisible();
});

test('a new account for oneself can be deleted from the survey', async ({ page, mailbox }) => {
  const email = uniqueEmail('self');
  await page.goto('/signup');
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill('first-password-1');
  await page.getByRole('button', { name: /sign ?up|create account|get started/i }).click();
  const mail = await mailbox.waitFor({ to: email, link: verifyLink });

  await page.goto(mail.linkMatching(verifyLink));
  await expect(page).toHaveURL(/\/use-case$/);
  await page.getByRole('radio', { name: /for me/i }).check();
  await page.getByRole('button', { name: /delete my account/i }).click();
  // The spec's deletion wording asks first.
  const confirm = page.getByRole('dialog', { name: 'Delete account?' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete this account? There is no undo.',
  );
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('heading', { name: /account has been deleted/i })).toBeVisible();

  // After a short pause the deleted account is logged out, and its password no longer works.
  await expect(page.getByRole('heading', { name: 'Parent Login' })).toBeVisible({
    timeout: 15_000,
  });
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill('first-password-1');
  await page.getByRole('button', { name: /^(log ?in|sign in)$/i }).click();
  await expect(page.getByText('Incorrect email or password')).toBeVisible();
});
