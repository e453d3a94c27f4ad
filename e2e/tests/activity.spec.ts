import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, connectSimulatedMac } from '../support/children.ts';
import { SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 8: the child's Mac (tools/device-sim) uploads a real screenshot and typed lines; the parent
// reviews the day: the real image, the lines merged per app, one item flagged, the rest deleted.

let mac: SimulatedMac | undefined;

test.afterEach(() => {
  mac?.dispose();
  mac = undefined;
});

test('a day of activity: summaries with counts, the real image, merged lines, flag one, delete the rest', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  await signInAsNewParent(page, request, mailbox, 'activity');
  const childName = `Ada ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  mac = new SimulatedMac(baseURL);
  await connectSimulatedMac(page, mac);
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();

  // The Mac uploads a generated JPEG and two lines typed in the same app.
  expect(await mac.ok(['screenshot'])).toMatch(/uploaded a \d+×\d+ screenshot/);
  await mac.ok(['type', 'Safari', 'how do volcanoes work']);
  await mac.ok(['type', 'Safari', 'volcano project ideas']);

  // The day appears with two items: the screenshot, and the two lines merged into one.
  await page.goto(`/children/${childId}/activity`);
  await expect(page.getByRole('heading', { name: `${childName} Activity` })).toBeVisible();
  const today = page.getByRole('link', { name: /Today/ });
  await expect(today).toContainText('0 out of 2 items reviewed');
  await today.click();

  const screenshot = page.getByRole('article', { name: /^Screenshot, / });
  const lines = page.getByRole('article', { name: /^Safari, / });
  await expect(lines).toHaveCount(1);
  await expect(lines).toContainText('how do volcanoes work');
  await expect(lines).toContainText('volcano project ideas');

  // The real image is shown (decoded by the browser, from the server's signed link).
  const image = screenshot.getByRole('img', { name: /^Screenshot taken/ });
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const imageUrl = await image.getAttribute('src');
  if (!imageUrl) throw new Error('no image URL');
  const fresh = await request.get(imageUrl);
  expect(fresh.status()).toBe(200);
  expect(fresh.headers()['content-type']).toContain('image/jpeg');

  // Flag the screenshot, delete the rest.
  await screenshot.getByRole('button', { name: 'Flag' }).click();
  await expect(screenshot.getByRole('button', { name: 'Unflag' })).toBeVisible();
  await expect(screenshot.getByRole('button', { name: 'Delete' })).toBeDisabled();
  // It asks with the count, then can be undone until its toast ends (8 s).
  await page.getByRole('button', { name: 'Delete unflagged' }).click();
  await page
    .getByRole('dialog', { name: 'Delete unflagged activity?' })
    .getByRole('button', { name: 'Delete 1 item' })
    .click();
  await expect(lines).toHaveCount(0);
  await expect(page.getByText('1 item deleted.')).toBeVisible();

  // With a flagged item left, the page goes back to the day list 2 seconds after the delete.
  await expect(page).toHaveURL(new RegExp(`/children/${childId}/activity$`), { timeout: 20_000 });
  const done = page.getByRole('link', { name: /Today/ });
  // the flagged item is not reviewed: no Completed, so the badge and the words agree
  await expect(done).not.toContainText('Completed');
  await expect(done).toContainText('Flagged 1');
  await expect(done).toContainText('1 out of 2 items reviewed');

  // The image link stops working once it expires (20 s in the e2e server).
  await expect
    .poll(async () => (await request.get(imageUrl)).status(), {
      timeout: 40_000,
      intervals: [2_000],
    })
    .toBeGreaterThanOrEqual(400);
});
