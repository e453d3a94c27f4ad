import { describe, expect, it } from 'vitest';
import {
  type TemplateName,
  type TemplateParams,
  renderEmail,
} from '../src/services/mail-templates.ts';

// Issue 32 (item 10): some subjects began "[Keyward] …" and others did not. The sender's name
// already says who writes, so no subject starts with a bracketed prefix; every one names what
// happened. One sample per template: TypeScript fails this file when a template is added
// without one.

const url = 'https://keyward.example/x';
const week = {
  name: 'Sam',
  unlockRequests: 1,
  pendingUnlockRequests: 0,
  suspensionRequests: 0,
  activityToReview: 2,
  flaggedItems: 0,
  alerts: 0,
  securityEvents: 0,
  screenTimeMinutes: 95,
};
const samples: { [Name in TemplateName]: TemplateParams[Name] } = {
  'initial-signup': { url },
  'magic-link': { url },
  'parent-invite': { url, ownerEmail: 'owner@example.com' },
  'magic-link-no-account': { signupUrl: url },
  'password-reset': { url },
  'password-reset-no-account': { signupUrl: url },
  're-signup': { loginUrl: url, resetUrl: url },
  'keychain-request': { parentEmail: 'p@example.com', searchQuery: 'maths', description: 'x' },
  'notify-unlock-request': { childName: 'Sam', count: 1, targets: ['a.com'], comment: null, url },
  'notify-suspend-filter': { childName: 'Sam', count: 2, durationSeconds: 600, comment: null, url },
  'notify-more-time': { childName: 'Sam', count: 1, minutes: 15, comment: null, url },
  'notify-security-event': {
    childName: 'Sam',
    count: 1,
    summary: 'App quit',
    explanation: null,
    url,
  },
  'notify-activity-alert': { childName: 'Sam', count: 1, categories: 'self-harm', url },
  'verify-notification-email': { code: 123456 },
  'billing-alert': { parentEmail: 'p@example.com', message: 'x' },
  'delete-email-unverified': { signupUrl: url },
  'trial-ending-soon': { trialLengthDays: 21, daysRemaining: 3, url },
  'trial-ended-to-overdue': { url },
  'overdue-to-unpaid': { url },
  'paid-to-overdue': { url },
  'unpaid-to-pending-delete': { url, daysUntilDeletion: 30 },
  'totp-enabled': { settingsUrl: url },
  'totp-disabled': { settingsUrl: url },
  'recovery-code-used': { codesLeft: 7, settingsUrl: url },
  'passkey-added': { name: 'Phone', settingsUrl: url },
  'passkey-removed': { name: 'Phone', settingsUrl: url },
  'weekly-report': { children: [week], url, unsubscribeUrl: url },
  'data-export-ready': { url, expiresInHours: 24 },
};
const ctx = { appName: 'Keyward', supportEmail: 'help@keyward.example', currentYear: 2026 };

describe('email subjects', () => {
  for (const name of Object.keys(samples) as TemplateName[]) {
    it(`${name}: no bracketed prefix, ends with its reference`, () => {
      const { subject } = renderEmail(name, samples[name] as never, ctx);
      expect(subject).not.toMatch(/^\[/);
      expect(subject).toMatch(/^\S.* \[ref:[0-9a-f]{5}\]$/);
    });
  }
});
