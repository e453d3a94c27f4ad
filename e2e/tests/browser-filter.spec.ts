import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { signInAsNewParent } from '../support/auth-pages.ts';
import {
  blockPageUrl,
  childBrowserSuite,
  childWithCode,
  connectChildBrowser,
  expectSite,
  hasRuleFor,
} from '../support/browser-extension.ts';
import { addChildInBrowser, readConnectionCode } from '../support/children.ts';
import { expect, test } from '../support/fixtures.ts';
import { dashboardCall } from '../support/dashboard-call.ts';

// Issue 22, Keyward for Chrome: the extension, built from this tree and loaded into a Chromium of
// its own (the child's browser), connects with a code from the dashboard and filters for real:
// everything is blocked but what the parent's keys unlock; the child asks from the block page and
// the page opens by itself once the parent says yes.

const requestLink = /\/children\/[0-9a-f-]{36}\/unlock-requests\/[0-9a-f-]{36}$/;
const suspensionLink = /\/children\/[0-9a-f-]{36}\/suspend-filter-requests\/[0-9a-f-]{36}$/;
/** A parent's change reaches the browser over the push channel within this time. */
const PUSH_MS = 2_000;

const suite = childBrowserSuite(test);

test('Keyward for Chrome: connect with a code; blocked until a key unlocks; ask from the block page; the parent accepts and the page opens by itself; a removed key blocks again; a suspension opens everything', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(240_000);
  if (!baseURL) throw new Error('no baseURL');
  const sites = suite.sites();
  const site = sites;

  // The parent adds a child and gets a connection code in the dashboard.
  const parent = await signInAsNewParent(page, request, mailbox, 'chrome');
  const childName = `Mia ${Date.now().toString(36)}`;
  const childId = await addChildInBrowser(page, childName);
  await page.getByRole('button', { name: 'Get connection code' }).click();
  const code = await readConnectionCode(page);

  // On the child's computer the extension is installed and opens its setup page.
  const child = await suite.launch();
  await connectChildBrowser(child, code, childName, baseURL);

  // Issue 32: a connected browser shows its real filter state, not always "Offline".
  await page.goto('/computers');
  await expect(page.getByText('Filter on').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Offline', { exact: true })).toHaveCount(0);

  // Without keys every site is blocked: the block page shows the address.
  const tab = await child.context.newPage();
  const blocked = site.url('blocked-site.com', '/games?level=2');
  await tab.goto(blocked);
  await expect(tab).toHaveURL(blockPageUrl(child, blocked));
  await expect(tab.getByRole('heading', { name: 'This page is blocked' })).toBeVisible();
  await expect(tab.getByText(blocked, { exact: true })).toBeVisible();

  // The parent gives the child a keychain with a key for allowed-site.com: pushed within 2 s.
  const keychainId = crypto.randomUUID();
  await dashboardCall(page, request, 'SaveKeychain', {
    isNew: true,
    id: keychainId,
    name: 'Homework',
    description: null,
  });
  await dashboardCall(page, request, 'ToggleChildKeychain', { childId, keychainId });
  const keyId = crypto.randomUUID();
  const keySavedAt = Date.now();
  await dashboardCall(page, request, 'SaveKey', {
    isNew: true,
    id: keyId,
    keychainId,
    key: { type: 'domain', domain: 'allowed-site.com', scope: { type: 'webBrowsers' } },
  });
  await expect
    .poll(async () => hasRuleFor(await child!.rules(), 'allowed-site.com'), {
      timeout: PUSH_MS,
      intervals: [100],
    })
    .toBe(true);
  console.log(`the key reached the browser in ${Date.now() - keySavedAt} ms`);
  await tab.goto(site.url('allowed-site.com'));
  await expectSite(tab, site.url('allowed-site.com'));

  // The child asks for the blocked site from its block page.
  await tab.goto(blocked);
  await expect(tab.getByRole('heading', { name: 'This page is blocked' })).toBeVisible();
  const askedAt = Date.now();
  await tab.getByLabel(/Why do you need it/).fill('my friend made this game');
  await tab.getByRole('button', { name: 'Ask for this site' }).click();
  await expect(tab.getByText('Asked! Waiting for a parent to answer…')).toBeVisible();

  // The parent hears about it, reviews it and accepts it with a key in the Homework keychain.
  const mail = await mailbox.waitFor({ to: parent.email, link: requestLink, since: askedAt });
  expect(mail.subject).toContain(childName);
  await page.goto(mail.linkMatching(requestLink));
  await expect(page).toHaveURL(/\/review$/);
  await expect(page.getByText('my friend made this game')).toBeVisible();
  await page.getByRole('link', { name: 'Accept' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a keychain' })).toBeVisible();
  await page.getByRole('link', { name: /Homework/ }).click();
  const wizard = page.getByRole('dialog', { name: 'Edit key' });
  await expect(wizard.getByRole('button', { name: /blocked-site\.com/ }).first()).toBeVisible();
  await wizard.getByRole('button', { name: 'Save key and accept' }).click();
  await expect(wizard).toBeHidden();

  // The block page goes to the site by itself.
  await expectSite(tab, blocked);

  // The parent removes the allowed-site.com key: blocked again within 2 s.
  const removedAt = Date.now();
  await dashboardCall(page, request, 'DeleteEntity_v2', { id: keyId, type: 'key' });
  await expect
    .poll(async () => hasRuleFor(await child!.rules(), 'allowed-site.com'), {
      timeout: PUSH_MS,
      intervals: [100],
    })
    .toBe(false);
  console.log(`the removal reached the browser in ${Date.now() - removedAt} ms`);
  await tab.goto(site.url('allowed-site.com'));
  await expect(tab).toHaveURL(blockPageUrl(child, site.url('allowed-site.com')));

  // The child asks to turn the filter off; the parent grants it; the page opens by itself.
  const games = site.url('games-site.com');
  await tab.goto(games);
  await expect(tab.getByRole('heading', { name: 'This page is blocked' })).toBeVisible();
  const suspendAskedAt = Date.now();
  await tab
    .getByLabel('Turn the filter off for', { exact: true })
    .selectOption({ label: '30 minutes' });
  await tab.getByRole('button', { name: 'Ask to turn the filter off' }).click();
  await expect(tab.getByText('Asked! Waiting for a parent to answer…')).toBeVisible();
  const suspensionMail = await mailbox.waitFor({
    to: parent.email,
    link: suspensionLink,
    since: suspendAskedAt,
  });
  await page.goto(suspensionMail.linkMatching(suspensionLink));
  await expect(page.getByRole('heading', { name: 'Suspend filter request' })).toBeVisible();
  await page.getByLabel('Suspend the filter for').selectOption({ label: '20 minutes' });
  const grantedAt = Date.now();
  await page.getByRole('button', { name: 'Grant suspension' }).click();
  // issue 32: as promptly as an accepted unlock (it took ~30 s), not at the next alarm
  await expectSite(tab, games, 8_000);
  console.log(`the granted suspension opened the site in ${Date.now() - grantedAt} ms`);
  await page.goto('/computers');
  await expect(page.getByText(/Filter suspended/).first()).toBeVisible({ timeout: 15_000 });
  // Everything is open while the suspension runs.
  await tab.goto(site.url('allowed-site.com'));
  await expectSite(tab, site.url('allowed-site.com'));
});

test('not connected: everything is blocked and the block page says Keyward is not set up; a wrong code is refused in plain words', async ({
  baseURL,
}) => {
  test.setTimeout(60_000);
  if (!baseURL) throw new Error('no baseURL');
  const sites = suite.sites();
  const child = await suite.launch();
  const tab = await child.context.newPage();
  await tab.goto(sites.url('allowed-site.com'));
  await expect(tab).toHaveURL(blockPageUrl(child, sites.url('allowed-site.com')));
  await expect(tab.getByRole('heading', { name: 'Keyward is not set up yet' })).toBeVisible();

  const setup = await child.context.newPage();
  await setup.goto(child.extensionUrl('setup.html'));
  await setup.getByLabel('Keyward server address').fill(baseURL);
  await setup.getByLabel('Connection code').fill('000000');
  await setup.getByRole('button', { name: 'Connect' }).click();
  await expect(setup.getByRole('alert')).toContainText(/code/i);

  await setup.getByLabel('Keyward server address').fill('http://127.0.0.1:9');
  await setup.getByLabel('Connection code').fill('123456');
  await setup.getByRole('button', { name: 'Connect' }).click();
  await expect(setup.getByRole('alert')).toContainText("can't reach http://127.0.0.1:9");
});

test('activity: screenshots of the open tab and the lines the child types reach the parent, never a password', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  const sites = suite.sites();
  const { childId, childName, keychainId, code } = await childWithCode(
    page,
    request,
    mailbox,
    'chrome-activity',
  );
  await dashboardCall(page, request, 'SaveUser', {
    id: childId,
    isNew: false,
    name: childName,
    keyloggingEnabled: true,
    screenshotsEnabled: true,
    screenshotsResolution: 640,
    screenshotsFrequency: 10,
    showSuspensionActivity: true,
    keychains: [{ id: keychainId }],
  });
  const child = await suite.launch();
  await connectChildBrowser(child, code, childName, baseURL);

  const tab = await child.context.newPage();
  await tab.goto(sites.url('allowed-site.com'));
  await expectSite(tab, sites.url('allowed-site.com'));
  await tab.bringToFront();
  await tab.getByLabel('Search').pressSequentially('cats and dogs');
  await tab.getByLabel('Search').press('Enter');
  await tab.getByLabel('Password').pressSequentially('secret123');
  await tab.getByLabel('Password').press('Enter');

  const start = new Date(Date.now() - 60 * 60_000).toISOString();
  const feed = async () => {
    const end = new Date(Date.now() + 60 * 60_000).toISOString();
    return (await dashboardCall(page, request, 'UserActivityFeed', {
      userId: childId,
      range: { start, end },
    })) as {
      items: { case: string; line?: string; appName?: string; width?: number }[];
    };
  };
  await expect
    .poll(async () => (await feed()).items.map((item) => item.case).sort(), {
      timeout: 60_000,
      intervals: [2_000],
    })
    .toEqual(expect.arrayContaining(['keystrokeLine', 'screenshot']));
  const { items } = await feed();
  const lines = items.filter((item) => item.case === 'keystrokeLine');
  expect(lines.map((item) => [item.appName, item.line])).toContainEqual([
    'allowed-site.com',
    'cats and dogs',
  ]);
  expect(JSON.stringify(items)).not.toContain('secret123');
  const screenshot = items.find((item) => item.case === 'screenshot');
  expect(screenshot?.width).toBe(640);
});

test('the block page offers the parts the tab could not load, and asks for them with the page', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const sites = suite.sites();
  const { childId, childName, code } = await childWithCode(page, request, mailbox, 'chrome-parts');
  const child = await suite.launch();
  await connectChildBrowser(child, code, childName, baseURL);

  // An unlocked page shows a picture from a site that is not: the picture is blocked.
  const tab = await child.context.newPage();
  const picture = sites.url('blocked-site.com', '/picture.png');
  await tab.goto(sites.url('allowed-site.com', '/with-picture'));
  await expectSite(tab, sites.url('allowed-site.com', '/with-picture'));
  await expect
    .poll(() => tab.locator('img').evaluate((img: HTMLImageElement) => img.complete))
    .toBe(true);

  // The next page is blocked; its block page offers the picture too.
  const games = sites.url('games-site.com');
  await tab.goto(games);
  const parts = tab.getByRole('group', { name: /Other things this tab could not load/ });
  await expect(parts).toBeVisible();
  await parts.getByRole('checkbox', { name: picture }).check();
  await tab.getByRole('button', { name: 'Ask for this site' }).click();
  await expect(tab.getByText('Asked! Waiting for a parent to answer…')).toBeVisible();

  const requests = (await dashboardCall(page, request, 'GetUserUnlockRequests', childId)) as {
    url: string;
  }[];
  expect(requests.map((r) => r.url).sort()).toEqual([games, picture].sort());
});

test('downtime blocks even unlocked sites, and ends when the parent changes it', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(120_000);
  if (!baseURL) throw new Error('no baseURL');
  const sites = suite.sites();
  const { childId, childName, keychainId, code } = await childWithCode(
    page,
    request,
    mailbox,
    'chrome-downtime',
  );
  const child = await suite.launch();
  await connectChildBrowser(child, code, childName, baseURL);
  const tab = await child.context.newPage();
  const allowed = sites.url('allowed-site.com');
  await tab.goto(allowed);
  await expectSite(tab, allowed);

  // Downtime from an hour ago to an hour from now, in the browser's own time zone.
  const hour = await (await child.worker()).evaluate(() => new Date().getHours());
  const settings = {
    id: childId,
    isNew: false,
    name: childName,
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 60,
    showSuspensionActivity: true,
    keychains: [{ id: keychainId }],
  };
  await dashboardCall(page, request, 'SaveUser', {
    ...settings,
    downtime: {
      start: { hour: (hour + 23) % 24, minute: 0 },
      end: { hour: (hour + 1) % 24, minute: 59 },
    },
  });
  // The open page is reloaded onto the block page.
  await expect(tab).toHaveURL(blockPageUrl(child, allowed), { timeout: PUSH_MS + 3_000 });
  await expect(tab.getByRole('heading', { name: "It's downtime" })).toBeVisible();

  await dashboardCall(page, request, 'SaveUser', settings);
  await expect
    .poll(async () => hasRuleFor(await child!.rules(), 'allowed-site.com'), {
      timeout: PUSH_MS,
      intervals: [100],
    })
    .toBe(true);
  await tab.goto(allowed);
  await expectSite(tab, allowed);
});

test('a suspension ends on time: the open site goes back to the block page by itself', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(150_000);
  if (!baseURL) throw new Error('no baseURL');
  const sites = suite.sites();
  const { parent, childName, code } = await childWithCode(
    page,
    request,
    mailbox,
    'chrome-suspension',
  );
  const child = await suite.launch();
  await connectChildBrowser(child, code, childName, baseURL);

  const tab = await child.context.newPage();
  const games = sites.url('games-site.com');
  await tab.goto(games);
  const askedAt = Date.now();
  await tab.getByRole('button', { name: 'Ask to turn the filter off' }).click();
  await expect(tab.getByText('Asked! Waiting for a parent to answer…')).toBeVisible();
  const mail = await mailbox.waitFor({ to: parent.email, link: suspensionLink, since: askedAt });
  const requestId = mail.linkMatching(suspensionLink).split('/').pop();
  // one minute, the shortest grant (the dashboard offers longer ones)
  await dashboardCall(page, request, 'DecideFilterSuspensionRequest', {
    id: requestId,
    decision: { case: 'accepted', durationInSeconds: 60 },
  });
  await expectSite(tab, games);
  const grantedAt = Date.now();

  // No one touches anything: when the time is up the tab is blocked again.
  await expect(tab).toHaveURL(blockPageUrl(child, games), { timeout: 90_000 });
  console.log(`blocked again ${Math.round((Date.now() - grantedAt) / 1000)} s after the grant`);
});

test('the download from the server carries its address: the setup page asks only for the code; a browser the parent removes blocks everything', async ({
  page,
  request,
  mailbox,
  baseURL,
}) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('no setup');
  // The server zips the build in apps/browser-filter/dist (npm run build makes it): today's code.
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, [join(root, 'apps/browser-filter/scripts/build.mjs')], {
    cwd: root,
  });
  const response = await request.get('/downloads/keyward-chrome.zip');
  expect(response.status()).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), 'keyward-download-'));
  try {
    writeFileSync(join(dir, 'keyward-chrome.zip'), await response.body());
    execFileSync('unzip', ['-q', join(dir, 'keyward-chrome.zip'), '-d', join(dir, 'unpacked')]);
    const { childName, code } = await childWithCode(page, request, mailbox, 'chrome-download');
    const child = await suite.launch(join(dir, 'unpacked'));
    const setup = await child.context.newPage();
    await setup.goto(child.extensionUrl('setup.html'));
    await expect(setup.getByLabel('Keyward server address')).toHaveValue(baseURL);
    await setup.getByLabel('Connection code').fill(code);
    await setup.getByRole('button', { name: 'Connect' }).click();
    await expect(setup.getByRole('heading', { name: `Connected to ${childName}` })).toBeVisible();

    // The parent removes this browser: it forgets its connection and blocks everything again.
    const tab = await child.context.newPage();
    await tab.goto(suite.sites().url('allowed-site.com'));
    await expectSite(tab, suite.sites().url('allowed-site.com'));
    const worker = await child.worker();
    const deviceId = await worker.evaluate(async () => {
      const { chrome } = globalThis as unknown as {
        chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
      };
      const { connection } = await chrome.storage.local.get('connection');
      return (connection as { deviceId: string }).deviceId;
    });
    await dashboardCall(page, request, 'DeleteEntity_v2', { id: deviceId, type: 'computerUser' });
    await expect(tab).toHaveURL(blockPageUrl(child, suite.sites().url('allowed-site.com')), {
      timeout: 10_000,
    });
    await expect(tab.getByRole('heading', { name: 'Keyward is not set up yet' })).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
