import type { APIRequestContext, Page } from '@playwright/test';
import { expectLoginPage, logInWithPassword, signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, connectSimulatedMac } from '../support/children.ts';
import { type OnlineMac, SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';
import { dashboardCall } from '../support/dashboard-call.ts';

// Issue 7: a child asks from the Mac (tools/device-sim), the parent hears about it by email (or
// Slack), opens the link, decides in the dashboard, and the Mac learns the decision at once.

let mac: SimulatedMac | undefined;
let online: OnlineMac | undefined;

test.afterEach(async () => {
  await online?.stop();
  online = undefined;
  mac?.dispose();
  mac = undefined;
});

const requestLink = /\/children\/[0-9a-f-]{36}\/unlock-requests\/[0-9a-f-]{36}$/;
const suspensionLink = /\/children\/[0-9a-f-]{36}\/suspend-filter-requests\/[0-9a-f-]{36}$/;

/** A new parent with a child whose Mac is connected and online, and one own keychain. */
async function familyWithOnlineMac(
  page: Page,
  request: APIRequestContext,
  mailbox: Parameters<typeof signInAsNewParent>[2],
  baseURL: string,
  label: string,
) {
  const parent = await signInAsNewParent(page, request, mailbox, label);
  const childName = `Kai ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  mac = new SimulatedMac(baseURL);
  await connectSimulatedMac(page, mac);
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();
  online = mac.online();
  await online.waitForLine(/^online: /);
  return { parent, childId, childName };
}

test('an unlock request: email → review → keychain → prefilled key → the Mac gets it; a denial with a comment', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(180_000);
  if (!baseURL) throw new Error('no baseURL');
  const { parent, childId, childName } = await familyWithOnlineMac(
    page,
    request,
    mailbox,
    baseURL,
    'unlock',
  );
  const keychainId = crypto.randomUUID();
  await dashboardCall(page, request, 'SaveKeychain', {
    isNew: true,
    id: keychainId,
    name: 'Homework',
    description: null,
  });
  await dashboardCall(page, request, 'ToggleChildKeychain', { childId, keychainId });

  // The child asks for a site from Safari.
  const since = Date.now();
  const asked = await mac!.ok([
    'unlock',
    'https://www.khanacademy.org/math',
    '--app',
    'com.apple.Safari',
    '--comment',
    'math homework',
  ]);
  expect(asked).toMatch(/asked to unlock .*khanacademy\.org/);

  // The parent (no notification rules yet) gets the fallback email with a link to the request.
  const mail = await mailbox.waitFor({ to: parent.email, link: requestLink, since });
  expect(mail.subject).toContain(childName);
  const link = mail.linkMatching(requestLink);
  expect(link).toContain(`/children/${childId}/unlock-requests/`);

  // Signed out, the link goes through the login page and lands on the review.
  await page.goto('/logout');
  await expectLoginPage(page);
  await page.goto(link);
  await logInWithPassword(page, parent.email, parent.password);
  await expect(page).toHaveURL(/\/review$/);
  await expect(page.getByRole('heading', { name: 'Unlock request' })).toBeVisible();
  await expect(page.getByText('math homework')).toBeVisible();

  // Accept → choose the keychain → the wizard opens prefilled for the requested site.
  await page.getByRole('link', { name: 'Accept' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a keychain' })).toBeVisible();
  await page.getByRole('link', { name: /Homework/ }).click();
  const wizard = page.getByRole('dialog', { name: 'Edit key' });
  await expect(wizard.getByRole('button', { name: /^Key type Website/ })).toBeVisible();
  await expect(
    wizard.getByRole('button', { name: /^Website address (www\.)?khanacademy\.org$/ }),
  ).toBeVisible();
  await expect(wizard.getByRole('button', { name: /^Affected apps Web browsers/ })).toBeVisible();
  await wizard.getByRole('button', { name: 'Save key and accept' }).click();
  await expect(wizard).toBeHidden();
  await expect(page.getByText(/accepted/i).first()).toBeVisible();

  // The Mac hears the decision over its push channel and now holds the key.
  await online!.waitForLine(/unlock request for \S*khanacademy\.org\S* accepted/);
  const keys = await mac!.keys();
  expect(keys.join('\n')).toContain('khanacademy.org');

  // A second request is denied with a comment the child sees.
  const secondSince = Date.now();
  await mac!.ok(['unlock', 'https://www.youtube.com/watch?v=1', '--app', 'com.apple.Safari']);
  const second = await mailbox.waitFor({ to: parent.email, link: requestLink, since: secondSince });
  await page.goto(second.linkMatching(requestLink));
  await expect(page).toHaveURL(/\/review$/);
  await page.getByRole('link', { name: 'Deny' }).click();
  await page.getByLabel(/^Comment for/).fill('Not during homework');
  await page.getByRole('button', { name: 'Deny request' }).click();
  await online!.waitForLine(/youtube\.com.* rejected: "Not during homework"/);

  // Both decisions are on the child's request list.
  await page.goto(`/children/${childId}/unlock-requests`);
  await expect(page.getByText(/khanacademy\.org/).first()).toBeVisible();
  await expect(page.getByText(/youtube\.com/).first()).toBeVisible();
});

test('a suspension request: the parent grants 20 minutes with extra screenshots and the Mac hears it', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  const { parent, childName } = await familyWithOnlineMac(
    page,
    request,
    mailbox,
    baseURL,
    'suspend',
  );

  const since = Date.now();
  expect(await mac!.ok(['suspend', '10', '--comment', 'school video'])).toMatch(/10 minutes/);
  const mail = await mailbox.waitFor({ to: parent.email, link: suspensionLink, since });
  expect(mail.subject).toContain(childName);

  await page.goto(mail.linkMatching(suspensionLink));
  await expect(page.getByRole('heading', { name: 'Suspend filter request' })).toBeVisible();
  await expect(page.getByText('school video')).toBeVisible();
  await page.getByLabel('Suspend the filter for').selectOption({ label: '20 minutes' });
  const extra = page.getByRole('group', { name: 'Extra monitoring' });
  await extra
    .getByRole('radio', { name: /^screenshots every/ })
    .first()
    .check();
  await page.getByRole('button', { name: 'Grant suspension' }).click();

  const line = await online!.waitForLine(/suspension request accepted: 20 minutes/);
  expect(line).toMatch(/extra monitoring: .*screenshots/);
  await expect(page.getByText('Granted duration')).toBeVisible();
});

test('a Slack method: confirm its code, create an unlock-request notification, the next request arrives in Slack', async ({
  page,
  request,
  mailbox,
  slack,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  const { childName } = await familyWithOnlineMac(page, request, mailbox, baseURL, 'slack');
  const channelId = `C${Date.now().toString(36).toUpperCase()}`;

  await page.goto('/settings');
  await page.getByRole('button', { name: 'Add method' }).click();
  const drawer = page.getByRole('dialog', { name: 'New notification method' });
  await drawer.getByText('Slack', { exact: true }).click();
  await drawer.getByLabel('Channel name').fill('family-alerts');
  await drawer.getByLabel('Channel ID').fill(channelId);
  await drawer.getByLabel('Bot token').fill('xoxb-e2e-token-1234');
  const codeSentAt = Date.now();
  await drawer.getByRole('button', { name: 'Send code' }).click();

  const codeMessage = await slack.waitFor(channelId, /verification code/i, codeSentAt);
  expect(codeMessage.token).toBe('xoxb-e2e-token-1234');
  const code = codeMessage.text.match(/\d{6}/)?.[0];
  expect(code).toBeDefined();
  await drawer.getByLabel('Verification code').fill(code!);
  await drawer.getByRole('button', { name: 'Verify code' }).click();

  const oneMoreStep = page.getByRole('dialog', { name: 'One more step!' });
  await expect(oneMoreStep).toBeVisible();
  await oneMoreStep.getByRole('button', { name: 'Create notification' }).click();
  const card = page.getByRole('article', { name: 'New notification' });
  await card.getByLabel('Notify me about').selectOption({ label: 'Unlock requests' });
  await card.getByLabel('Send to').selectOption({ label: 'Slack: #family-alerts' });
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('article', { name: 'Unlock requests' })).toContainText(
    'Slack: #family-alerts',
  );

  const since = Date.now();
  await mac!.ok(['unlock', 'minecraft.net', '--comment', 'building a castle']);
  const message = await slack.waitFor(channelId, /unlock request/i, since);
  expect(message.text).toContain(childName);
  expect(message.text).toMatch(/\/children\/[0-9a-f-]{36}\/unlock-requests\/[0-9a-f-]{36}/);
});
