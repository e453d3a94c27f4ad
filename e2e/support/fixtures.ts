import { test as base, expect } from '@playwright/test';
import { Mailbox } from './mailbox.ts';
import { SlackInbox } from './slack-catcher.ts';

export interface Fixtures {
  mailbox: Mailbox;
  /** What the server posted to the local Slack stand-in. */
  slack: SlackInbox;
}

export const test = base.extend<Fixtures>({
  // The global setup picks the server's port and exports it; workers inherit the environment.
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument.
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url)
      throw new Error('E2E_BASE_URL is not set: run the tests through playwright.config.ts');
    await use(url);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument.
  mailbox: async ({}, use) => {
    const dir = process.env.E2E_MAIL_DIR;
    if (!dir)
      throw new Error('E2E_MAIL_DIR is not set: run the tests through playwright.config.ts');
    await use(new Mailbox(dir));
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright fixtures take a destructured first argument.
  slack: async ({}, use) => {
    const dir = process.env.E2E_SLACK_DIR;
    if (!dir)
      throw new Error('E2E_SLACK_DIR is not set: run the tests through playwright.config.ts');
    await use(new SlackInbox(dir));
  },
});

export { expect };
