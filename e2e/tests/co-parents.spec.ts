import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expectSignedIn, signInAsNewParent } from '../support/auth-pages.ts';
import { addChildInBrowser, connectionDialog, connectSimulatedMac } from '../support/children.ts';
import { type OnlineMac, SimulatedMac } from '../support/device.ts';
import { expect, test } from '../support/fixtures.ts';
import { uniqueEmail } from '../support/parents.ts';
import { dashboardCall } from '../support/dashboard-call.ts';

// Issue 12: the owner invites a co-parent from Settings; the invitee accepts from the email, signs
// in with their own password and approves the child's unlock request; the owner sees who did it in
// the audit log.

let mac: SimulatedMac | undefined;
let online: OnlineMac | undefined;

test.afterEach(async () => {
  await online?.stop();
  online = undefined;
  mac?.dispose();
  mac = undefined;
});

const inviteLink = /\/parent-invite\/[0-9a-f-]{36}$/;
const requestLink = /\/children\/[0-9a-f-]{36}\/unlock-requests\/[0-9a-f-]{36}$/;

/** No serious or critical axe violation on the page (as tests/accessibility.spec.ts checks). */
async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map((node) => `${label}: ${violation.id} ${node.target.join(' ')}`),
    );
  expect.soft(serious, serious.join('\n')).toEqual([]);
}

test('a co-parent accepts the emailed invitation, approves an unlock request, and the owner sees it in the audit log', async ({
  page,
  browser,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(180_000);
  if (!baseURL) throw new Error('no baseURL');

  // The owner's family: a child whose Mac is online, and a keychain for that child.
  const owner = await signInAsNewParent(page, request, mailbox, 'owner');
  const childName = `Kai ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  mac = new SimulatedMac(baseURL);
  await connectSimulatedMac(page, mac);
  await connectionDialog(page).getByRole('button', { name: 'Done' }).click();
  online = mac.online();
  await online.waitForLine(/^online: /);
  const keychainId = crypto.randomUUID();
  await dashboardCall(page, request, 'SaveKeychain', {
    isNew: true,
    id: keychainId,
    name: 'Homework',
    description: null,
  });
  await dashboardCall(page, request, 'ToggleChildKeychain', { childId, keychainId });

  // Settings → Parents → invite.
  const coParent = { email: uniqueEmail('coparent'), password: 'co-parent-password-1' };
  await page.goto('/settings');
  const parents = page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Parents' }) });
  await expect(parents.getByText(owner.email)).toBeVisible();
  const invitedAt = Date.now();
  await parents.getByLabel('Invite a parent by email').fill(coParent.email);
  await parents.getByRole('button', { name: 'Send invitation' }).click();
  await expect(parents.getByText(`Invitation sent to ${coParent.email}`)).toBeVisible();
  await expect(parents.getByText('invited', { exact: true })).toBeVisible();
  await expectAccessible(page, '/settings (owner)');

  // The invitee opens the emailed link in their own browser and chooses a password.
  const invitation = await mailbox.waitFor({
    to: coParent.email,
    link: inviteLink,
    since: invitedAt,
  });
  expect(invitation.subject).toContain(owner.email);
  const coContext = await browser.newContext({ baseURL });
  const coPage = await coContext.newPage();
  await coPage.goto(invitation.linkMatching(inviteLink));
  await expect(coPage.getByRole('heading', { name: 'Join your family on Keyward' })).toBeVisible();
  await expectAccessible(coPage, '/parent-invite');
  await coPage.getByLabel('Choose a password').fill(coParent.password);
  await coPage.getByRole('button', { name: 'Accept the invitation' }).click();
  await expectSignedIn(coPage);

  // The co-parent sees the family, not the billing link.
  await coPage.goto('/settings');
  await expect(coPage.getByText('Only the account owner can manage billing.')).toBeVisible();
  await expect(
    coPage.getByText('Only the account owner can invite or remove parents.'),
  ).toBeVisible();

  // The child asks; the owner gets the fallback email; the co-parent approves from its link.
  const askedAt = Date.now();
  await mac.ok(['unlock', 'https://www.khanacademy.org/math', '--app', 'com.apple.Safari']);
  const mail = await mailbox.waitFor({ to: owner.email, link: requestLink, since: askedAt });
  await coPage.goto(mail.linkMatching(requestLink));
  await expect(coPage).toHaveURL(/\/review$/);
  await coPage.getByRole('link', { name: 'Accept' }).click();
  await coPage.getByRole('link', { name: /Homework/ }).click();
  const wizard = coPage.getByRole('dialog', { name: 'Edit key' });
  await wizard.getByRole('button', { name: 'Save key and accept' }).click();
  await expect(wizard).toBeHidden();
  await online.waitForLine(/unlock request for \S*khanacademy\.org\S* accepted/);

  // The owner's audit log names the co-parent and what they did.
  await page.goto('/settings/audit-log');
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const entries = page.getByRole('list', { name: 'Audit log entries' });
  await expect(
    entries.getByText(new RegExp(`${coParent.email}.*"pending" to "accepted"`)).first(),
  ).toBeVisible();
  await expectAccessible(page, '/settings/audit-log');
  await page.getByLabel('Person').selectOption({ label: coParent.email });
  await expect(entries.getByText(owner.email)).toHaveCount(0);
  await expect(entries.getByText(coParent.email).first()).toBeVisible();
  await coContext.close();
});
