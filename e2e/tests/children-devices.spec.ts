import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, readConnectionCode } from '../support/children.ts';
import { SIM_EXIT, SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 3: a parent adds a child, connects the child's Mac (tools/device-sim) with a connection
// code, watches its live status, changes a setting the Mac picks up through a push, sees it go
// offline, and removes the connection, which revokes the Mac's token.

let mac: SimulatedMac | undefined;

test.afterEach(() => {
  mac?.dispose();
  mac = undefined;
});

test('a child, a connected Mac, a pushed setting, offline and a removed connection', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  mac = new SimulatedMac(baseURL);

  await signInAsNewParent(page, request, mailbox, 'devices');

  // Add a child in the browser.
  const childName = `Ada ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);

  // Get a connection code; the simulated Mac connects with it while the dialog stays open.
  await page.getByRole('button', { name: 'Get connection code' }).click();
  const code = await readConnectionCode(page);
  expect(code).toMatch(/^\d{6}$/);
  const connected = await mac.connect(code);
  expect(connected).toContain(`is now ${childName}'s computer`);

  // The open dialog shows the computer without a reload.
  const dialog = connectionDialog(page);
  const shown = dialog.getByText(/ connected!$/);
  await expect(shown).toBeVisible({ timeout: 15_000 });
  const computerName = ((await shown.textContent()) ?? '').replace(/ connected!$/, '').trim();
  expect(computerName).toBe('MacBook Air (M1, 2020)'); // the simulator's default MacBookAir10,1
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // Like the real app, a Mac that just connected reports its filter on at once, so it is not
  // shown Offline (which it would be without a reported state, server-behaviour §4.5).
  expect(connected).toContain('Reported: filter on');
  // The child's page leads with the child's devices (issue 20).
  const deviceCard = page
    .getByRole('region', { name: 'Devices' })
    .getByRole('article', { name: computerName });
  await expect(deviceCard).toContainText('Filter on');

  // The Mac reports its filter as on again: the children and computers pages show 'Filter on'.
  expect(await mac.ok(['state', 'on'])).toContain('Reported: filter on');

  await page.goto('/children');
  const childCard = page.getByRole('article', { name: childName });
  await expect(childCard).toBeVisible();
  await expect(childCard.getByText('Setup incomplete')).toBeHidden();
  await expect(childCard.getByRole('listitem').filter({ hasText: computerName })).toContainText(
    'Filter on',
  );
  await expect(childCard.getByText('Screenshots off')).toBeVisible();

  await page.getByRole('link', { name: 'Computers', exact: true }).click();
  await expect(page).toHaveURL(/\/computers$/);
  const computerCard = page.getByRole('article', { name: computerName });
  await expect(computerCard).toBeVisible();
  await expect(computerCard).toContainText(childName); // online now
  await expect(computerCard).toContainText('Filter on');

  // The Mac goes online (holds the push channel); the parent turns screenshots on and saves.
  const online = mac.online();
  await online.waitForLine(/^online: /);

  await page.goto(`/children/${childId}`);
  await expect(page.getByRole('heading', { name: childName, exact: true })).toBeVisible();
  await expect(deviceCard).toContainText('Filter on');
  const screenshots = page.getByRole('switch', { name: 'Screenshots' });
  await expect(screenshots).toHaveAttribute('aria-checked', 'false');
  const save = page.getByRole('button', { name: 'Save child' });
  await expect(save).toBeDisabled(); // nothing changed yet
  await screenshots.click();
  await expect(screenshots).toHaveAttribute('aria-checked', 'true');
  await expect(save).toBeEnabled();
  const saved = page.waitForResponse((r) => r.url().endsWith('/pairql/dashboard/SaveUser'));
  await save.click();
  expect((await saved).status()).toBe(200);
  await expect(save).toBeDisabled(); // saved: nothing left to save

  // The push arrives, and the check-in it triggers shows the new setting.
  await online.waitForLine(/^push: \{"userUpdated":\{\}\}/);
  await online.waitForLine(/^screenshotsEnabled: false -> true$/);
  const checkin = await mac.ok(['checkin']);
  expect(checkin).toMatch(/^Screenshots: on\b/m);

  // The Mac stops (SIGINT sends goingOffline): the child shows as offline.
  expect(await online.stop()).toBe(SIM_EXIT.ok);
  expect(online.lines).toContain('offline: sent goingOffline');

  await page.goto('/children');
  const cardAfter = page.getByRole('article', { name: childName });
  await expect(cardAfter.getByRole('listitem').filter({ hasText: computerName })).toContainText(
    'Offline',
  );
  await expect(cardAfter).not.toContainText('Filter on');
  await expect(cardAfter.getByText('Screenshots on')).toBeVisible();

  // The parent deletes the connection (with its confirmation); the Mac's token stops working.
  await cardAfter.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/children/${childId}$`));
  await page.getByRole('button', { name: `Delete connection to ${computerName}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete connection?' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete this connection? There is no undo.',
  );
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeHidden();
  // Without computers the child page asks to connect one again.
  await expect(page.getByRole('button', { name: 'Get connection code' })).toBeVisible();

  const refused = await mac.run(['checkin']);
  expect(refused.code, refused.stdout + refused.stderr).toBe(SIM_EXIT.connectionRemoved);
  expect(refused.stderr).toContain("This computer's connection was removed.");
});
