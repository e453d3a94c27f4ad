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
