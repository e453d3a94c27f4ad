import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, connectSimulatedMac } from '../support/children.ts';
import { SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 24: with keystroke logging on, the child types a line with a self-harm phrase (obfuscated);
// the parent finds the alert first in the day's review, with its category, and this week's card
// counts it.

let mac: SimulatedMac | undefined;

test.afterEach(() => {
  mac?.dispose();
  mac = undefined;
});

test('a typed alert is flagged, shown first with its category, and counted this week', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  await signInAsNewParent(page, request, mailbox, 'alerts');
  const childName = `Noa ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  mac = new SimulatedMac(baseURL);
  await connectSimulatedMac(page, mac);
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();

  // Alerts need keystroke logging; self-harm is on already.
  await expect(page.getByRole('switch', { name: 'Self-harm' })).toBeChecked();
  await page.getByRole('switch', { name: 'Keystroke logging' }).click();
  await page.getByRole('button', { name: 'Save child' }).click();
  await expect(page.getByRole('button', { name: 'Save child' })).toBeDisabled();

  await mac.ok(['type', 'Discord', 'honestly i wanna diiiie']);
  await mac.ok(['type', 'Safari', 'volcano project ideas']);
  await mac.ok(['type', 'Safari', 'how do volcanoes work']);

  // Issue 32 (item 6): the alert needs the parent, on home and in the inbox, and leads to the
  // child's activity.
  const alertLine = `1 alert on what ${childName} typed (self-harm)`;
  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Alerts' })).toContainText(alertLine);
  await page.goto('/inbox');
  const inboxAlerts = page.getByRole('list', { name: 'Alerts' });
  await expect(inboxAlerts).toContainText(alertLine);
  await inboxAlerts.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/children/${childId}/activity$`));
  await expect(page.getByRole('region', { name: 'This week' })).toContainText('1 alert');
  const today = page.getByRole('link', { name: /^Today/ });
  await expect(today).toContainText('Flagged 1');
  await today.click();

  const items = page.getByRole('feed', { name: 'Activity' }).getByRole('article');
  await expect(items).toHaveCount(2);
  const first = items.first();
  await expect(first).toHaveAttribute('aria-label', /^Discord, .*, alert: Self-harm$/);
  await expect(first).toContainText('Alert: Self-harm');
  await expect(first).toContainText('Matched: "wanna die"');
  await expect(first.getByRole('button', { name: 'Unflag' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Show alerts and flagged first' })).toBeChecked();

  // Delete unflagged keeps the alert, and says so.
  await page.getByRole('button', { name: 'Delete unflagged' }).click();
  await page
    .getByRole('dialog', { name: 'Delete unflagged activity?' })
    .getByRole('button', { name: 'Delete 1 item' })
    .click();
  await expect(page.getByText('1 item deleted.')).toBeVisible();
  await expect(
    page.getByText('Done! 1 flagged item kept for 60 days. 1 of them is an alert.'),
  ).toBeVisible({ timeout: 20_000 });
});
