import { signInAsNewParent } from '../support/auth-pages.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 20: double-clicking "Save child" once made two children. The page keeps one id and sends
// one save, and the server answers a repeated create of that id as done.

test('a double click on Save child adds one child', async ({ page, request, mailbox }) => {
  await signInAsNewParent(page, request, mailbox, 'double-click');
  await page.goto('/children/new');
  await page.getByLabel('Name', { exact: true }).fill('Twin');
  await page.getByRole('button', { name: 'Save child' }).dblclick();
  await expect(page).toHaveURL(/\/children\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Twin', exact: true })).toBeVisible();

  await page.goto('/children');
  await expect(page.getByRole('heading', { name: 'Children', exact: true })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Twin' })).toHaveCount(1);
});
