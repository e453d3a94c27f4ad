import { signInAsNewParent } from '../support/auth-pages.ts';
import { expectNoSeriousViolations } from '../support/axe.ts';
import { addChildInBrowser, connectionDialog, readConnectionCode } from '../support/children.ts';
import { SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 10: a simulated iPad (tools/device-sim's ios mode) connects with a connection code; the
// parent switches its web policy to blockAllExcept with two domains and adds a custom block rule
// in the browser, and `ios check` reflects each change; a suspension request from the iPad reaches
// the parent's email with a working link, the parent grants it on the suspension page, and
// `ios poll` sees it accepted.

let ipad: SimulatedMac | undefined;

test.afterEach(() => {
  ipad?.dispose();
  ipad = undefined;
});

test('an iPad: connect, web policy and domains, a custom rule, a granted suspension', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(180_000);
  if (!baseURL) throw new Error('no baseURL');
  const device = new SimulatedMac(baseURL);
  ipad = device;
  const check = async (...args: string[]) => (await device.ok(['ios', 'check', ...args])).trim();

  const parent = await signInAsNewParent(page, request, mailbox, 'ipad');
  const childName = `Ivy ${Date.now().toString(36)}`;
  await addChildInBrowser(page, childName);

  // The connection code dialog has the iPhone or iPad's own steps; the iPad connects with the code.
  await page.getByRole('button', { name: 'Get connection code' }).click();
  const code = await readConnectionCode(page);
  const dialog = connectionDialog(page);
  await dialog.getByRole('radio', { name: 'iPhone or iPad', exact: true }).check();
  // issue 32: what the parent can really install on it, then where the code goes
  await expect(dialog).toContainText(
    `What you can install on ${childName}'s iPhone or iPad today:`,
  );
  await expect(dialog).toContainText('Then enter this connection code in it:');
  const connected = await device.ok(['ios', 'connect', code]);
  expect(connected).toContain(`is now ${childName}'s iPad.`);
  const deviceId = /iOS device id: ([0-9a-f-]{36})/.exec(connected)?.[1];
  if (!deviceId) throw new Error(`no device id in: ${connected}`);
  // The open dialog shows the iPad without a reload.
  await expect(dialog.getByText('iPad connected!')).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();

  // A new device blocks every website (blockAll).
  expect(await check('https://www.khanacademy.org/math')).toMatch(
    /^blocked: .*web policy: block all websites$/,
  );

  // The children card lists the iPad; the sidebar gains the iOS link, which leads to its page.
  await page.goto('/children');
  const card = page.getByRole('article', { name: childName });
  await expect(card.getByRole('list', { name: `${childName}'s iOS devices` })).toContainText(
    'iPad',
  );
  await page.getByRole('link', { name: 'iOS devices', exact: true }).click();
  await expect(page).toHaveURL(/\/ios-devices$/);
  const deviceCard = page.getByRole('article', { name: `${childName}'s iPad` });
  await expect(deviceCard).toContainText('17.5');
  await deviceCard.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/ios-devices/${deviceId}$`));
  await expect(page.getByRole('heading', { name: `${childName}'s iPad` })).toBeVisible();
  await expect(page.getByText('No block rules')).toBeVisible();

  // Web policy: block all except two domains, added one at a time; a duplicate is refused.
  await page.getByRole('radio', { name: /Block all websites except these/ }).check();
  const domain = page.getByRole('textbox', { name: 'Domain' });
  const addDomain = page.getByRole('button', { name: 'Add domain' });
  await expect(addDomain).toBeDisabled();
  await domain.fill('khanacademy.org');
  await addDomain.click();
  await domain.fill('KhanAcademy.org');
  await expect(addDomain).toBeDisabled();
  await domain.fill('wikipedia.org');
  await domain.press('Enter');
  await expect(page.getByRole('list', { name: 'Allowed domains' })).toHaveText(
    /khanacademy\.org.*wikipedia\.org/,
  );
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save settings' })).toBeDisabled();

  expect(await check('https://www.khanacademy.org/math')).toMatch(
    /^allowed: .*web policy: on the allowed list$/,
  );
  expect(await check('en.wikipedia.org')).toMatch(/^allowed: .*on the allowed list$/);
  expect(await check('www.example.org')).toMatch(/^blocked: .*not on the allowed list$/);

  // A custom rule: the address wikipedia.org, in a browser.
  await page.getByRole('button', { name: 'Add block rule' }).click();
  const form = page.getByRole('form', { name: 'New block rule' });
  await form.getByRole('radio', { name: 'An address' }).check();
  await expect(form.getByRole('button', { name: 'Save rule' })).toBeDisabled();
  await form.getByRole('textbox', { name: 'Address' }).fill('wikipedia.org');
  await form.getByRole('combobox', { name: 'Condition' }).selectOption({
    label: 'when it is a browser',
  });
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(page.getByRole('list', { name: 'Block rules' })).toContainText(
    'Block the address wikipedia.org when it is a browser',
  );

  expect(await check('en.wikipedia.org')).toMatch(
    /^blocked: .*block rule: address wikipedia.org, in a browser$/,
  );
  expect(await check('en.wikipedia.org', '--app', 'org.wikimedia.wikipedia')).toMatch(/^allowed: /);
  expect(await check('https://www.khanacademy.org/math')).toMatch(/^allowed: /);

  // A suspension request from the iPad: emailed to the parent with a link to the device's page,
  // which links to the suspension page, where the parent grants 20 minutes.
  const since = Date.now();
  const asked = await device.ok(['ios', 'suspend', '15', '--comment', 'school video']);
  expect(asked).toMatch(/asked to suspend the filter for 15 minutes/);
  const deviceLink = new RegExp(`/ios-devices/${deviceId}$`);
  const mail = await mailbox.waitFor({ to: parent.email, link: deviceLink, since });
  expect(mail.subject).toContain(childName);
  expect((await device.ok(['ios', 'poll'])).trim()).toMatch(/ pending$/);

  await page.goto(mail.linkMatching(deviceLink));
  const requests = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Suspension requests' }) });
  await expect(requests).toContainText('15 minutes');
  await expect(requests).toContainText('school video');
  await requests.getByRole('link', { name: 'Review request' }).click();
  await expect(page).toHaveURL(
    /\/children\/[0-9a-f-]{36}\/suspend-filter-requests\/[0-9a-f-]{36}$/,
  );
  await expect(page.getByRole('heading', { name: 'Suspend filter request' })).toBeVisible();
  await expect(page.getByText('school video')).toBeVisible();
  // no extra monitoring for an iPad
  await expect(page.getByRole('group', { name: 'Extra monitoring' })).toBeHidden();
  await page.getByLabel('Suspend the filter for').selectOption({ label: '20 minutes' });
  await page.getByRole('button', { name: 'Grant suspension' }).click();
  await expect(page.getByText('You granted this suspension.')).toBeVisible();

  expect((await device.ok(['ios', 'poll'])).trim()).toMatch(/ accepted: 20 minutes$/);

  // The device page no longer lists it.
  await page.goto(`/ios-devices/${deviceId}`);
  await expect(page.getByRole('heading', { name: 'Block groups' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Suspension requests' })).toBeHidden();

  // The iOS pages pass axe at a desktop and a phone width, with a request waiting and the rule
  // editor open.
  await device.ok(['ios', 'suspend', '5']);
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/ios-devices');
    await expect(page.getByRole('article').first()).toBeVisible();
    await expectNoSeriousViolations(page, `iOS devices list at ${width} px`);
    await page.goto(`/ios-devices/${deviceId}`);
    await expect(page.getByRole('heading', { name: 'Suspension requests' })).toBeVisible();
    await page.getByRole('button', { name: 'Add block rule' }).click();
    await page.getByRole('combobox', { name: 'Condition' }).selectOption({
      label: 'unless address contains',
    });
    await expectNoSeriousViolations(page, `iOS device page at ${width} px`);
  }
});
