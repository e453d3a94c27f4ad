import { signInAsNewParent } from '../support/auth-pages.ts';
import { dashboardCall } from '../support/dashboard-call.ts';
import { addChildInBrowser, connectionDialog, connectSimulatedMac } from '../support/children.ts';
import { SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';

// Issue 32, what a new parent trips over: accepting into a keychain the child does not have
// unlocked nothing (#2), and "Save key and accept" was greyed out with no reason for a local host
// (#7).

let mac: SimulatedMac | undefined;

test.afterEach(() => {
  mac?.dispose();
  mac = undefined;
});

const requestLink = /\/children\/[0-9a-f-]{36}\/unlock-requests\/[0-9a-f-]{36}$/;

test('accepting into a new keychain gives it to the child; a local host says why it cannot be a key', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(180_000);
  if (!baseURL) throw new Error('no baseURL');
  const parent = await signInAsNewParent(page, request, mailbox, 'newparent');
  await addChildInBrowser(page, `Ada ${Date.now().toString(36)}`);
  mac = new SimulatedMac(baseURL);
  await connectSimulatedMac(page, mac);
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();
  // a keychain of the parent's that the child does not have
  await dashboardCall(page, request, 'SaveKeychain', {
    isNew: true,
    id: crypto.randomUUID(),
    name: 'School',
    description: null,
  });

  // #2: the child asks; the parent accepts into "School"; the key applies on the Mac
  let askedAt = Date.now();
  await mac.ok(['unlock', 'https://games.example.com/play', '--app', 'com.apple.Safari']);
  let mail = await mailbox.waitFor({ to: parent.email, link: requestLink, since: askedAt });
  await page.goto(mail.linkMatching(requestLink));
  await page.getByRole('link', { name: 'Accept' }).click();
  const school = page.getByRole('link', { name: /School/ });
  await expect(school).toContainText(/accepting gives it to Ada/);
  await school.click();
  const wizard = page.getByRole('dialog', { name: 'Edit key' });
  await wizard.getByRole('button', { name: 'Save key and accept' }).click();
  await expect(wizard).toBeHidden();
  await expect(page.getByText(/now has the School keychain/)).toBeVisible();
  await expect
    .poll(async () => (await mac!.keys()).join('\n'), { timeout: 15_000 })
    .toMatch(/games\.example\.com/);

  // #7: a name on a local network cannot be a key: the reason and what would work, by the button
  askedAt = Date.now();
  await mac.ok(['unlock', 'http://intranet/wiki', '--app', 'com.apple.Safari']);
  mail = await mailbox.waitFor({ to: parent.email, link: requestLink, since: askedAt });
  await page.goto(mail.linkMatching(requestLink));
  await page.getByRole('link', { name: 'Accept' }).click();
  await page.getByRole('link', { name: /School/ }).click();
  const save = wizard.getByRole('button', { name: 'Save key and accept' });
  await expect(save).toBeDisabled();
  await expect(wizard.getByText(/'intranet' is a name on a local network/)).toBeVisible();
  await expect(save).toHaveAccessibleDescription(/IP address/);
});
