import type { SharedKey } from '@keyward/contract/shared';
import { describeKey } from '@keyward/domain/keys';
import type { Page } from '@playwright/test';
import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectSimulatedMac } from '../support/children.ts';
import { SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 4: a parent builds a keychain with the key wizard, gives it to a child on a schedule,
// adds a public keychain found by search, and the child's Mac (tools/device-sim) applies exactly
// the keys of both keychains.

let mac: SimulatedMac | undefined;

test.afterEach(() => {
  mac?.dispose();
  mac = undefined;
});

const browsers = { type: 'webBrowsers' } as const;
const site = (domain: string): SharedKey => ({ type: 'anySubdomain', domain, scope: browsers });

/** The own key the wizard creates. */
const OWN_KEY = site('duolingo.com');
/** The seeded public keychain 'Khan Academy' (apps/server/src/db/migrations/0003_public_keychains.ts). */
const PUBLIC_KEYCHAIN = 'Khan Academy';
const PUBLIC_KEYS = [site('khanacademy.org'), site('kastatic.org'), site('kasandbox.org')];

/**
 * The schedule of the own keychain is active every day 00:00-23:59, end exclusive: it applies
 * now unless it is 23:59 here. In that one minute, wait for midnight, so the result is certain.
 */
async function waitUntilNotAt2359(): Promise<void> {
  for (;;) {
    const now = new Date();
    if (!(now.getHours() === 23 && now.getMinutes() === 59)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function createKeychain(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: 'Keychains', exact: true }).click();
  await expect(page).toHaveURL(/\/keychains$/);
  await expect(page.getByText('No keychains', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Create keychain' }).first().click();
  await expect(page).toHaveURL(/\/keychains\/new$/);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create keychain' }).click();
  await expect(page).toHaveURL(/\/keychains\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  await expect(page.getByText('No keys')).toBeVisible();
}

/** Adds a website key through the key wizard, trying a bad address and an IP first. */
async function addWebsiteKeyWithWizard(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Add new key' }).click();
  const wizard = page.getByRole('dialog', { name: 'Create a new key' });
  await expect(wizard).toBeVisible();
  const next = wizard.getByRole('button', { name: 'Next' });

  // Key type: website.
  await wizard.getByRole('radio', { name: /^Website/ }).check();
  await next.click();

  // Website address.
  const address = wizard.getByRole('textbox', { name: 'Website address' });
  await expect(address).toBeVisible();
  await expect(next).toBeDisabled();

  await address.fill('not-a-real-site');
  await expect(wizard.getByText('invalid address')).toBeVisible();
  await expect(next).toBeDisabled();

  await address.fill('192.168.1.20');
  await expect(wizard.getByText(/turn on advanced and pick the ip address/i)).toBeVisible();
  await expect(wizard.getByText('invalid address')).toBeHidden();
  await expect(next).toBeDisabled();
  // Following the hint makes the IP valid.
  await wizard.getByRole('switch', { name: 'Advanced' }).click();
  await wizard.getByRole('radio', { name: /^IP address/ }).check();
  await expect(wizard.getByText(/turn on advanced and pick the ip address/i)).toBeHidden();
  await expect(next).toBeEnabled();

  // Back to a standard address: a good one.
  await wizard.getByRole('radio', { name: /^Standard/ }).check();
  const websiteAddress = wizard.getByRole('textbox', { name: 'Website address' });
  await websiteAddress.fill('https://Duolingo.com:443/learn');
  await expect(wizard.getByText('invalid address')).toBeHidden();
  await expect(wizard.getByText(/also unlocks \w+\.duolingo\.com$/)).toBeVisible();
  await expect(next).toBeEnabled();
  await next.click();

  // Affected apps: web browsers (the default), expiration: never, then a comment.
  await expect(wizard.getByRole('radio', { name: /^Web browsers/ })).toBeChecked();
  await next.click();
  await expect(wizard.getByRole('switch', { name: 'Expires' })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await next.click();
  await wizard.getByLabel('Comment').fill('Language practice');
  await wizard.getByRole('button', { name: 'Create key' }).click();
  await expect(wizard).toBeHidden();
}

test('a keychain made in the wizard and a public keychain reach the Mac, with a schedule', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  mac = new SimulatedMac(baseURL);

  await signInAsNewParent(page, request, mailbox, 'keychains');

  // A child with a connected Mac that has no keys yet.
  const childName = `Ben ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  await connectSimulatedMac(page, mac);
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
  expect(await mac.keys()).toEqual(['No keys apply on this computer right now.']);

  // A keychain with one website key made in the wizard.
  const keychainName = `School languages ${Date.now().toString(36)}`;
  await createKeychain(page, keychainName);
  await addWebsiteKeyWithWizard(page);
  await expect(page.getByText('No keys')).toBeHidden();
  await expect(page.getByText(describeKey(OWN_KEY), { exact: true })).toBeVisible();

  // Child page → Keychains → Add keychain: the own keychain on a schedule active now.
  await page.goto(`/children/${childId}`);
  await expect(page.getByRole('heading', { name: childName, exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Add keychain' }).click();
  let drawer = page.getByRole('dialog', { name: 'Add keychain' });
  await expect(drawer).toBeVisible();
  const addInDrawer = drawer.getByRole('button', { name: 'Add keychain' });
  await expect(addInDrawer).toBeDisabled(); // nothing selected yet
  await expect(drawer.getByRole('button', { name: 'My keychains' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await drawer.getByRole('button', { name: new RegExp(keychainName) }).click();
  await expect(drawer.getByRole('region', { name: 'Selected keychain' })).toContainText(
    describeKey(OWN_KEY),
  );
  await drawer.getByRole('switch', { name: 'Schedule' }).click();
  await drawer.getByRole('radio', { name: 'Active during these times', exact: true }).check();
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
    await expect(drawer.getByRole('checkbox', { name: day, exact: true })).toBeChecked();
  await drawer.getByLabel('Start time').fill('00:00');
  await drawer.getByLabel('End time').fill('23:59');
  await expect(drawer.getByText('End time must be after start time')).toBeHidden();
  await expect(addInDrawer).toBeEnabled();
  await addInDrawer.click();
  await expect(drawer).toBeHidden();

  const ownAssignment = page.getByRole('listitem', { name: keychainName });
  await expect(ownAssignment).toBeVisible();
  await expect(ownAssignment).toContainText('Active 00:00–23:59, every day');

  // A public keychain found by search, always active.
  await page.getByRole('button', { name: 'Add keychain' }).click();
  drawer = page.getByRole('dialog', { name: 'Add keychain' });
  await drawer.getByRole('button', { name: 'Public keychains' }).click();
  await drawer.getByRole('searchbox', { name: 'Search keychains' }).fill('Khan');
  const publicCard = drawer.getByRole('button', { name: new RegExp(`^${PUBLIC_KEYCHAIN}`) });
  await expect(publicCard).toBeVisible();
  await expect(publicCard).toContainText('Public');
  await expect(publicCard).toContainText(`${PUBLIC_KEYS.length} keys`);
  await expect(drawer.getByRole('button', { name: /^Zoom video calls/ })).toBeHidden();
  await publicCard.click();
  await drawer.getByRole('button', { name: 'Add keychain' }).click();
  await expect(drawer).toBeHidden();

  const publicAssignment = page.getByRole('listitem', { name: PUBLIC_KEYCHAIN });
  await expect(publicAssignment).toBeVisible();
  await expect(publicAssignment).toContainText('Always active');

  const save = page.getByRole('button', { name: 'Save child' });
  const saved = page.waitForResponse((r) => r.url().endsWith('/pairql/dashboard/SaveUser'));
  await save.click();
  expect((await saved).status()).toBe(200);
  await expect(save).toBeDisabled(); // saved: nothing left to save

  // After a reload the child keeps both keychains, the own one still on its schedule.
  await page.reload();
  await expect(page.getByRole('listitem', { name: keychainName })).toContainText(
    'Active 00:00–23:59, every day',
  );
  await expect(page.getByRole('listitem', { name: PUBLIC_KEYCHAIN })).toContainText(
    'Always active',
  );

  // The keychains list shows the child on the keychain's card.
  await page.getByRole('link', { name: 'Keychains', exact: true }).click();
  const card = page.getByRole('article', { name: keychainName });
  await expect(card).toContainText(childName);
  await expect(card).toContainText('1 key');
  await expect(card).not.toContainText('Not being used');

  // The Mac applies exactly the keys of both keychains, and nothing else.
  await waitUntilNotAt2359();
  const applied = await mac.keys();
  const expected = [OWN_KEY, ...PUBLIC_KEYS].map(describeKey);
  expect([...applied].sort()).toEqual([...expected].sort());

  // The Mac applies the schedule itself: at 23:59 (outside 00:00-23:59) only the public keys.
  const lateTonight = new Date();
  lateTonight.setHours(23, 59, 30, 0);
  const late = await mac.ok(['keys', '--at', lateTonight.toISOString()]);
  const lateLines = late.split('\n').filter((line) => line.trim() !== '');
  expect([...lateLines].sort()).toEqual(PUBLIC_KEYS.map(describeKey).sort());
});
