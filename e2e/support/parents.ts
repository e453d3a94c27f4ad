import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import type { Mailbox } from './mailbox.ts';

export interface Parent {
  email: string;
  password: string;
}

let counter = 0;

/** A fresh address per call, so tests never share an account or an inbox. */
export function uniqueEmail(label = 'parent'): string {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return `${label}-${stamp}@example.com`;
}

export const verifyLink = /\/verify-signup-email\/[0-9a-f-]{36}/i;
export const magicLink = /\/otp\/[0-9a-f-]{36}/i;
export const resetLink = /\/reset-password\/[0-9a-f-]{36}/i;

/**
 * Creates a verified parent the quick way (Signup + VerifySignupEmail on the API), for tests
 * whose subject is not the signup screens themselves.
 */
export async function createVerifiedParent(
  request: APIRequestContext,
  mailbox: Mailbox,
  label = 'parent',
): Promise<Parent> {
  const parent = { email: uniqueEmail(label), password: 'first-password-1' };
  const since = Date.now();
  const signup = await request.post('/pairql/dashboard/Signup', { data: parent });
  expect(signup.status(), await signup.text()).toBe(200);
  const mail = await mailbox.waitFor({ to: parent.email, link: verifyLink, since });
  const token = new URL(mail.linkMatching(verifyLink)).pathname.split('/').pop();
  const verify = await request.post('/pairql/dashboard/VerifySignupEmail', { data: { token } });
  expect(verify.status(), await verify.text()).toBe(200);
  return parent;
}
