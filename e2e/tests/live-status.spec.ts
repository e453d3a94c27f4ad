import { signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, readConnectionCode } from '../support/children.ts';
import { SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 9: while a Mac of the family is online, the statuses on the home, children and computers
// pages follow what the Mac reports within a few seconds, without a reload (the pages re-read
// every 5 s while a Mac is online).

let mac: SimulatedMac | undefined;

test.afterEach(() => {
  mac?.dispose();
  mac = undefined;
});

const WITHIN_A_FEW_SECONDS = { timeout: 12_000 };

test('statuses update without a reload on the home, children and computers pages', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  mac = new SimulatedMac(baseURL);
  await signInAsNewParent(page, request, mailbox, 'live');
  const childName = `Lou ${Date.now().toString(36)}`;
  await addChildInBrowser(page, childName);
  await page.getByRole('button', { name: 'Get connection code' }).click();
  await mac.connect(await readConnectionCode(page));
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();

  await page.goto('/');
  const children = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Children', exact: true }) });
  const row = children.getByRole('link', { name: new RegExp(childName) });
  await expect(row).toContainText('Filter on');
  await mac.ok(['state', 'off']);
  await expect(row).toContainText('Filter off', WITHIN_A_FEW_SECONDS);

  await page.getByRole('link', { name: 'Children', exact: true }).first().click();
  const card = page.getByRole('article', { name: childName });
  await expect(card).toContainText('Filter off');
  await mac.ok(['state', 'on']);
  await expect(card).toContainText('Filter on', WITHIN_A_FEW_SECONDS);

  await page.getByRole('link', { name: 'Computers', exact: true }).first().click();
  const computer = page.getByRole('article').first();
  await expect(computer).toContainText('Filter on');
  await mac.ok(['state', 'off']);
  await expect(computer).toContainText('Filter off', WITHIN_A_FEW_SECONDS);
});
