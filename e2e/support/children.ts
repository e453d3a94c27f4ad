import { expect, type Locator, type Page } from '@playwright/test';
import type { SimulatedMac } from './device.ts';

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** /children → Add child → name → Save child. Returns the new child's id (from the URL). */
export async function addChildInBrowser(page: Page, name: string): Promise<string> {
  await page.goto('/children');
  await expect(page.getByRole('heading', { name: 'Children', exact: true })).toBeVisible();
  // 'Add child' in the heading once children exist; 'Add a child' in the 'No children' state.
  await page
    .getByRole('link', { name: /^Add (a )?child$/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/children\/new$/);
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Save child' }).click();
  await expect(page).toHaveURL(new RegExp(`/children/${uuid.source}$`));
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').pop();
  if (!id) throw new Error(`No child id in ${page.url()}`);
  return id;
}

/** The open connection code dialog. */
export function connectionDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: /connect/i });
}

/** Reads the 6-digit code the open connection code dialog shows. */
export async function readConnectionCode(page: Page): Promise<string> {
  const dialog = connectionDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(/enter (it|this connection code|the code)/i);
  const code = dialog.getByText(/^\s*\d{6}\s*$/);
  await expect(code).toBeVisible();
  return ((await code.textContent()) ?? '').trim();
}

/**
 * From the child page of a child without computers: Get connection code, connect the simulated
 * Mac with it, and wait until the open dialog shows the connected computer (no reload).
 * Returns what `connect` printed.
 */
export async function connectSimulatedMac(page: Page, mac: SimulatedMac): Promise<string> {
  await page.getByRole('button', { name: 'Get connection code' }).click();
  const code = await readConnectionCode(page);
  const printed = await mac.connect(code);
  const dialog = connectionDialog(page);
  await expect(dialog.getByText(/connected!/)).toBeVisible({ timeout: 15_000 });
  return printed;
}
