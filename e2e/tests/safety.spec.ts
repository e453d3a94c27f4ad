import type { Page } from '@playwright/test';
import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectSimulatedMac } from '../support/children.ts';
import { SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 14, safety: nothing changes a child's access, or loses a parent's work, silently.
// - leaving the child page with unsaved changes asks (sidebar link, Back, closing the tab), and
//   Save child / Cancel stay in reach in a bar stuck to the bottom of the window;
// - removing a scheduled keychain assignment from the keychains list asks and says the schedule
//   is lost; the card's chips show the schedule;
// - a pasted URL keeps its host in the key wizard, and the preview never reads www.www.

let mac: SimulatedMac | undefined;

test.afterEach(() => {
  mac?.dispose();
  mac = undefined;
});

const leaveDialog = (page: Page) => page.getByRole('dialog', { name: 'Leave without saving?' });

/** The unsaved-changes bar is inside the window while the page is scrolled to its top. */
async function expectBarInView(page: Page): Promise<void> {
  const bar = page.getByRole('region', { name: 'Unsaved changes' });
  await expect(bar).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await bar.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error('no bar or viewport size');
  expect(box.y).toBeGreaterThan(0);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  await expect(bar.getByRole('button', { name: 'Save child' })).toBeInViewport();
  await expect(bar.getByRole('button', { name: 'Cancel' })).toBeInViewport();
}

test('unsaved child edits: a sticky bar, and every way out asks first', async ({
  page,
  request,
  mailbox,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  mac = new SimulatedMac(baseURL);
  await signInAsNewParent(page, request, mailbox, 'guard');

  const childName = `Sam ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  await connectSimulatedMac(page, mac);
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  const save = page.getByRole('button', { name: 'Save child' });
  await expect(save).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Unsaved changes' })).toBeHidden();

  // An edit: the bar appears, stuck to the bottom of the window on a long page.
  await page.getByRole('switch', { name: 'Keystroke logging' }).click();
  await expectBarInView(page);
  await page.screenshot({ path: testInfo.outputPath('sticky-bar-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible(); // phone layout
  await expectBarInView(page);
  await page.screenshot({ path: testInfo.outputPath('sticky-bar-390.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();

  // A sidebar link asks; Keep editing stays with the edit.
  await page.getByRole('link', { name: 'Keychains', exact: true }).click();
  await expect(leaveDialog(page)).toContainText(`Your changes to ${childName} are not saved yet`);
  await leaveDialog(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(page).toHaveURL(new RegExp(`/children/${childId}$`));
  await expect(page.getByRole('switch', { name: 'Keystroke logging' })).toBeChecked();

  // Back asks too.
  await page.goBack();
  await expect(leaveDialog(page)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/children/${childId}$`));
  await leaveDialog(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(page.getByRole('switch', { name: 'Keystroke logging' })).toBeChecked();

  // Closing the tab: the browser's own leave-page question (beforeunload).
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(page.isClosed()).toBe(false);

  // Cancel in the bar puts the child back; links then go unasked.
  await page
    .getByRole('region', { name: 'Unsaved changes' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  await expect(page.getByRole('switch', { name: 'Keystroke logging' })).not.toBeChecked();
  await expect(page.getByRole('region', { name: 'Unsaved changes' })).toBeHidden();

  // Edit again and leave after all: the edit is not saved.
  await page.getByRole('switch', { name: 'Keystroke logging' }).click();
  await page.getByRole('link', { name: 'Keychains', exact: true }).click();
  await leaveDialog(page).getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/keychains$/);
  await page.goto(`/children/${childId}`);
  await expect(page.getByRole('switch', { name: 'Keystroke logging' })).not.toBeChecked();
});

test('a scheduled assignment is only removed after a confirmation that says the schedule is lost', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  mac = new SimulatedMac(baseURL);
  await signInAsNewParent(page, request, mailbox, 'schedule');

  const childName = `Kim ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  await connectSimulatedMac(page, mac);
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

  // A keychain, given to the child after school on weekdays from the child page.
  const keychainName = `Homework ${Date.now().toString(36)}`;
  await page.goto('/keychains/new');
  await page.getByLabel('Name', { exact: true }).fill(keychainName);
  await page.getByRole('button', { name: 'Create keychain' }).click();
  await expect(page).toHaveURL(/\/keychains\/[0-9a-f-]{36}$/);

  await page.goto(`/children/${childId}`);
  await page.getByRole('button', { name: 'Add keychain' }).click();
  const drawer = page.getByRole('dialog', { name: 'Add keychain' });
  await drawer.getByRole('button', { name: new RegExp(keychainName) }).click();
  await drawer.getByRole('switch', { name: 'Schedule' }).click();
  await drawer.getByRole('checkbox', { name: 'Saturday', exact: true }).uncheck({ force: true });
  await drawer.getByRole('checkbox', { name: 'Sunday', exact: true }).uncheck({ force: true });
  await drawer.getByLabel('Start time').fill('15:00');
  await drawer.getByLabel('End time').fill('19:00');
  await drawer.getByRole('button', { name: 'Add keychain' }).click();
  await expect(drawer).toBeHidden();

  // Added, but not given yet: it says so until the child is saved.
  const assignment = page.getByRole('listitem', { name: keychainName });
  await expect(assignment).toContainText('Not saved yet');
  await expect(assignment).toContainText(
    `${childName} gets this keychain once you save the child.`,
  );
  const saved = page.waitForResponse((r) => r.url().endsWith('/pairql/dashboard/SaveUser'));
  await page.getByRole('button', { name: 'Save child' }).click();
  expect((await saved).status()).toBe(200);
  await expect(assignment).not.toContainText('Not saved yet');
  await expect(assignment).toContainText('Active 15:00–19:00, weekdays');

  // The keychains list: the chip shows the schedule.
  await page.getByRole('link', { name: 'Keychains', exact: true }).click();
  const card = page.getByRole('article', { name: keychainName });
  await expect(card).toContainText(`${childName}, on a schedule: Active 15:00–19:00, weekdays`);

  // Turning the child off asks first, and says what is lost; Cancel keeps it.
  await card.getByRole('button', { name: `Assign ${keychainName} to children` }).click();
  const item = page.getByRole('menuitemcheckbox', { name: childName });
  await expect(item).toHaveAttribute('aria-checked', 'true');
  await item.click();
  const confirm = page.getByRole('dialog', { name: `Remove ${keychainName} from ${childName}?` });
  await expect(confirm).toContainText(
    `${childName} has ${keychainName} on a schedule (Active 15:00–19:00, weekdays). Removing it deletes the schedule.`,
  );
  await expect(confirm).toContainText(
    `Turning ${childName} on again here gives the keychain always.`,
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(item).toHaveAttribute('aria-checked', 'true');
  await page.goto(`/children/${childId}`);
  await expect(page.getByRole('listitem', { name: keychainName })).toContainText(
    'Active 15:00–19:00, weekdays',
  );

  // Remove confirmed: the assignment and its schedule are gone.
  await page.getByRole('link', { name: 'Keychains', exact: true }).click();
  await card.getByRole('button', { name: `Assign ${keychainName} to children` }).click();
  await item.click();
  const toggled = page.waitForResponse((r) =>
    r.url().endsWith('/pairql/dashboard/ToggleChildKeychain'),
  );
  await confirm.getByRole('button', { name: 'Remove' }).click();
  expect((await toggled).status()).toBe(200);
  await expect(item).toHaveAttribute('aria-checked', 'false');
  await expect(item).toHaveAccessibleDescription('Off · turning on gives it always');
  await expect(card).toContainText('Not being used');
});

test("a pasted URL keeps its host and the preview never doubles 'www.'", async ({
  page,
  request,
  mailbox,
}) => {
  await signInAsNewParent(page, request, mailbox, 'www');
  await page.goto('/keychains/new');
  await page.getByLabel('Name', { exact: true }).fill('Learning');
  await page.getByRole('button', { name: 'Create keychain' }).click();
  await expect(page).toHaveURL(/\/keychains\/[0-9a-f-]{36}$/);

  await page.getByRole('button', { name: 'Add new key' }).click();
  const wizard = page.getByRole('dialog', { name: 'Create a new key' });
  await wizard.getByRole('radio', { name: /^Website/ }).check();
  await wizard.getByRole('button', { name: 'Next' }).click();
  await wizard
    .getByRole('textbox', { name: 'Website address' })
    .fill('https://www.Khanacademy.org:443/x');
  await expect(wizard.getByText("A leading 'www.' is left out")).toBeVisible();
  // The examples rotate every 2 s: watch a full round, none doubles a prefix.
  const preview = wizard.getByText(/^also unlocks /);
  const seen = new Set<string>();
  for (let i = 0; i < 8; i++) {
    const text = ((await preview.textContent()) ?? '').trim();
    seen.add(text);
    expect(text).toMatch(/^also unlocks [a-z]+\.khanacademy\.org$/);
    expect(text).not.toContain('www.www');
    await page.waitForTimeout(1000);
  }
  expect(seen).toContain('also unlocks www.khanacademy.org');

  const next = wizard.getByRole('button', { name: 'Next' });
  await next.click();
  await next.click();
  await next.click();
  const saved = page.waitForRequest((r) => r.url().endsWith('/pairql/dashboard/SaveKey'));
  await wizard.getByRole('button', { name: 'Create key' }).click();
  expect((await saved).postDataJSON().key).toEqual({
    type: 'anySubdomain',
    domain: 'khanacademy.org',
    scope: { type: 'webBrowsers' },
  });
  await expect(
    page.getByText('khanacademy.org and its subdomains in web browsers', { exact: true }),
  ).toBeVisible();
});
