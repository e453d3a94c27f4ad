import type { Page } from '@playwright/test';
import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, readConnectionCode } from '../support/children.ts';
import { type OnlineMac, SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 20: everything that waits for the parent in one place. A Mac's and an iPad's suspension
// requests (tools/device-sim as the children) appear on the home page, in the sidebar badge and in
// the tab title within 5 s, without a reload; the parent decides both inline, the Mac hears its
// decision at once (`device-sim online`) and the iPad polls its own; the list empties and says so.

let mac: SimulatedMac | undefined;
let ipad: SimulatedMac | undefined;
let online: OnlineMac | undefined;

test.afterEach(async () => {
  await online?.stop();
  online = undefined;
  mac?.dispose();
  mac = undefined;
  ipad?.dispose();
  ipad = undefined;
});

/** What the child's request must show within, from the moment the device has sent it. */
const LIVE_MS = 5_000;

const needsYou = (page: Page) =>
  page.getByRole('region').filter({ has: page.getByRole('heading', { name: /^Needs you/ }) });

test('a Mac and an iPad ask; home, badge and title show it within 5 s; decided inline', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(240_000);
  if (!baseURL) throw new Error('no baseURL');
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAsNewParent(page, request, mailbox, 'inbox');
  const stamp = Date.now().toString(36);
  const emma = `Emma ${stamp}`;
  const noah = `Noah ${stamp}`;

  // Emma's Mac is connected from the home page: the dialog stays open when the page turns from
  // setup to the overview, says "Computer connected", and Emma reads "Filter on" at once.
  await addChildInBrowser(page, emma);
  await page.goto('/');
  await expect(
    page.getByRole('heading', { name: `Let's connect ${emma}'s computer` }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Get connection code' }).click();
  mac = new SimulatedMac(baseURL);
  await mac.connect(await readConnectionCode(page));
  online = mac.online();
  await online.waitForLine(/^online: /);
  const connected = page.getByRole('dialog', { name: 'Computer connected' });
  await expect(connected).toBeVisible({ timeout: 15_000 });
  await expect(connected.getByText(/connected!$/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your family', level: 1 })).toBeVisible();
  await connected.getByRole('button', { name: 'Done' }).click();
  const children = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Children', exact: true }) });
  await expect(children.getByRole('link', { name: new RegExp(emma) })).toContainText('Filter on', {
    timeout: 10_000,
  });

  // Noah has only an iPad: set up, no "Setup incomplete", no "Connect Noah's computer".
  const noahId = await addChildInBrowser(page, noah);
  await page.getByRole('button', { name: 'Get connection code' }).click();
  ipad = new SimulatedMac(baseURL);
  expect(await ipad.ok(['ios', 'connect', await readConnectionCode(page)])).toContain(
    `is now ${noah}'s iPad.`,
  );
  await expect(connectionDialog(page).getByText('iPad connected!')).toBeVisible({
    timeout: 15_000,
  });
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: `Connect ${noah}'s computer` })).toBeHidden();
  await expect(page.getByRole('region', { name: 'Devices' }).getByRole('article')).toContainText(
    'iPad',
  );
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Your family', level: 1 })).toBeVisible();
  await expect(children.getByRole('link', { name: new RegExp(noah) })).not.toContainText(
    'Setup incomplete',
  );
  await expect(needsYou(page)).toHaveCount(0);
  await expect(page).toHaveTitle('Keyward');

  // The Mac asks; the home page, the sidebar badge and the tab title show it without a reload.
  const sidebarLink = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /^Needs you/ });
  expect(await mac.ok(['suspend', '10', '--comment', 'school video'])).toMatch(/10 minutes/);
  const macAsk = needsYou(page).getByRole('article', {
    name: `${emma}: Wants the filter off for 10 minutes`,
  });
  await expect(macAsk).toBeVisible({ timeout: LIVE_MS });
  await expect(macAsk).toContainText('school video');
  await expect(sidebarLink).toContainText('1 waiting', { timeout: LIVE_MS });
  await expect(page).toHaveTitle('(1) Keyward', { timeout: LIVE_MS });

  // The iPad asks too.
  expect(await ipad.ok(['ios', 'suspend', '15'])).toMatch(/15 minutes/);
  const ipadAsk = needsYou(page).getByRole('article', {
    name: `${noah}: Wants the filter off for 15 minutes`,
  });
  await expect(ipadAsk).toBeVisible({ timeout: LIVE_MS });
  await expect(ipadAsk).toContainText('iPad');
  await expect(sidebarLink).toContainText('2 waiting', { timeout: LIVE_MS });
  await expect(page).toHaveTitle('(2) Keyward', { timeout: LIVE_MS });

  // On a phone, the header carries the count.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('banner').getByRole('link', { name: /Needs you/ })).toContainText(
    '2',
  );
  await page.setViewportSize({ width: 1280, height: 800 });

  // The Mac's request: granted inline for 20 minutes; the Mac hears it at once.
  await macAsk.getByRole('button', { name: 'Decide' }).click();
  await macAsk.getByLabel('Suspend the filter for').selectOption({ label: '20 minutes' });
  await macAsk.getByRole('button', { name: 'Grant suspension' }).click();
  await online.waitForLine(/suspension request accepted: 20 minutes/);
  await expect(macAsk).toBeHidden();
  await expect(page).toHaveTitle('(1) Keyward', { timeout: LIVE_MS });

  // The iPad's: denied with a comment; the iPad reads the decision.
  await ipadAsk.getByRole('button', { name: 'Decide' }).click();
  await ipadAsk.getByRole('textbox', { name: `Comment for ${noah}` }).fill('Not tonight');
  await ipadAsk.getByRole('button', { name: 'Deny' }).click();
  await expect(ipadAsk).toBeHidden();
  await expect(needsYou(page)).toContainText('All answered! Nothing else is waiting for you.');
  await expect(page).toHaveTitle('Keyward', { timeout: LIVE_MS });
  await expect(sidebarLink).not.toContainText('waiting');
  expect((await ipad.ok(['ios', 'poll'])).trim()).toMatch(/Not tonight/);

  // The inbox page says so too; Noah's page lists his iPad and asks nothing.
  await page.goto('/inbox');
  await expect(page.getByText('All caught up! No requests are waiting for you.')).toBeVisible();
  await page.goto(`/children/${noahId}`);
  await expect(page.getByRole('region', { name: 'Devices' })).toContainText('iPad');
  await expect(page.getByRole('heading', { name: new RegExp(`^${noah} is asking`) })).toHaveCount(
    0,
  );
});
