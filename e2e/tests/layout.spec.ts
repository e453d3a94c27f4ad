import { expectSignedIn, logInWithPassword, openMenuButton } from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';
import { createVerifiedParent } from '../support/parents.ts';

async function hasHorizontalScroll(page: import('@playwright/test').Page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
}

test.describe('on a 390 px phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the sidebar hides behind a menu button and nothing scrolls sideways', async ({
    page,
    request,
    mailbox,
  }) => {
    const parent = await createVerifiedParent(request, mailbox, 'phone');
    await page.goto('/login');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await logInWithPassword(page, parent.email, parent.password);
    await expectSignedIn(page);

    const keychains = page.getByRole('link', { name: 'Keychains', exact: true });
    await expect(keychains).toBeHidden();
    expect(await hasHorizontalScroll(page)).toBe(false);

    await openMenuButton(page).click();
    await expect(keychains).toBeVisible();
    await keychains.click();
    await expect(page).toHaveURL(/\/keychains$/);
    await expect(keychains).toBeHidden();

    await page.goto('/settings');
    await expect(page.getByText(parent.email).first()).toBeAttached();
    expect(await hasHorizontalScroll(page)).toBe(false);
  });
});

test.describe('on a 1280 px desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the sidebar is visible with its links', async ({ page, request, mailbox }) => {
    const parent = await createVerifiedParent(request, mailbox, 'desktop');
    await page.goto('/login');
    await logInWithPassword(page, parent.email, parent.password);
    await expectSignedIn(page);

    for (const name of [
      'Dashboard',
      'Children',
      'Computers',
      'Keychains',
      'Security',
      'Settings',
    ]) {
      await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Log out' }).first()).toBeVisible();
    await expect(openMenuButton(page)).toBeHidden();
    expect(await hasHorizontalScroll(page)).toBe(false);
  });
});
