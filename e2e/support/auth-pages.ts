import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { Mailbox } from './mailbox.ts';
import { createVerifiedParent, type Parent } from './parents.ts';

/** What a parent does on the 'Parent Login' page to log in with a password. */
export async function logInWithPassword(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Parent Login' })).toBeVisible();
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: /^(log ?in|sign in)$/i }).click();
}

export async function expectLoginPage(page: Page) {
  await expect(page.getByRole('heading', { name: 'Parent Login' })).toBeVisible();
  await expect(page).toHaveURL(/\/login(\?|$)/);
}

export const openMenuButton = (page: Page) =>
  page.getByRole('button', { name: /^open (menu|sidebar)$/i });

/**
 * The signed-in chrome is showing: the sidebar's Log out link on a wide screen, or the button
 * that opens the slide-over sidebar on a phone; and the login page is not.
 */
export async function expectSignedIn(page: Page) {
  await expect(page.getByRole('heading', { name: 'Parent Login' })).toBeHidden();
  const chrome = page.getByRole('link', { name: 'Log out' }).or(openMenuButton(page));
  await expect(chrome.first()).toBeVisible();
}

/** Settings shows the account's email address (read-only). */
export async function expectSettingsFor(page: Page, email: string) {
  await expect(page).toHaveURL(/\/settings$/);
  const shown = page.getByText(email, { exact: true }).or(page.locator(`input[value="${email}"]`));
  await expect(shown.first()).toBeVisible();
}

/** A fresh verified parent, logged in through the login page, on the dashboard. */
export async function signInAsNewParent(
  page: Page,
  request: APIRequestContext,
  mailbox: Mailbox,
  label: string,
): Promise<Parent> {
  const parent = await createVerifiedParent(request, mailbox, label);
  await page.goto('/login');
  await logInWithPassword(page, parent.email, parent.password);
  await expectSignedIn(page);
  return parent;
}
