import {
  expectLoginPage,
  expectSettingsFor,
  expectSignedIn,
  logInWithPassword,
} from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';
import { createVerifiedParent } from '../support/parents.ts';

test('a parent logs out and logs in again with their password', async ({
  page,
  request,
  mailbox,
}) => {
  const parent = await createVerifiedParent(request, mailbox, 'relogin');
  await page.goto('/login');
  await logInWithPassword(page, parent.email, parent.password);
  await expectSignedIn(page);
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('link', { name: 'Log out' }).first().click();
  await expectLoginPage(page);

  // The session is really gone: a protected page sends us back to the login page.
  await page.goto('/settings');
  await expectLoginPage(page);

  await logInWithPassword(page, parent.email, parent.password);
  await expectSettingsFor(page, parent.email);
});

test("a wrong password shows the server's message", async ({ page, request, mailbox }) => {
  const parent = await createVerifiedParent(request, mailbox, 'wrongpw');
  await page.goto('/login');
  await logInWithPassword(page, parent.email, 'not-the-password');
  await expect(page.getByText('Incorrect email or password')).toBeVisible();
  await expectLoginPage(page);
});

test('a protected page opened signed out comes back after logging in', async ({
  page,
  request,
  mailbox,
}) => {
  const parent = await createVerifiedParent(request, mailbox, 'comeback');
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame())
      visited.push(new URL(frame.url()).pathname + new URL(frame.url()).search);
  });
  await page.goto('/settings');
  await expectLoginPage(page);
  await expect(page).toHaveURL(/\/login\?redirect=%2Fsettings$/);
  expect(visited).toContain('/logout?redirect=%2Fsettings');

  await logInWithPassword(page, parent.email, parent.password);
  await expectSettingsFor(page, parent.email);
});

// Issue 30: /login is rendered at build time; its form is in the first response and React takes it
// over (hydration) without a mismatch.
test('the login form is in the page before any script runs', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  // seen, not yet used: no browser's own submit (a GET with the password in the address)
  await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
  await expect(page.getByLabel('Password')).not.toBeEditable();
  await context.close();
});

test('the prerendered login page hydrates quietly and works', async ({
  page,
  request,
  mailbox,
}) => {
  const parent = await createVerifiedParent(request, mailbox, 'hydrated');
  const problems: string[] = [];
  page.on('console', (message) => {
    // the config blocks service workers (playwright.config.ts), and Playwright says so
    if (/blocked by Playwright/.test(message.text())) return;
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  const response = await page.goto('/login');
  expect(await response?.text()).toContain('data-prerendered="/login"');
  // hydrated: React's validation answers on the same elements the HTML brought
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Email is required.')).toBeVisible();
  await logInWithPassword(page, parent.email, parent.password);
  await expectSignedIn(page);
  expect(problems).toEqual([]);
});
