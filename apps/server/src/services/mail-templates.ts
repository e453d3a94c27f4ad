import { randomBytes } from 'node:crypto';
import { minutesInWords } from '@keyward/domain/screen-time';

// Email templates (server-behaviour §6.3). Each template is a function of its params returning
// the parts of the message; `renderEmail` wraps them in the shared plain-text + HTML layout and
// adds the " [ref:xxxxx]" subject suffix. No subject starts with "[App name]": the sender says who writes
// (issue 32); each names what happened. To add a template: add its params to `TemplateParams`
// and its function to `templates` — TypeScript then checks every caller.

/** One child's week in the weekly report (jobs/weekly-report.ts counts it). */
export interface ChildWeek {
  name: string;
  unlockRequests: number;
  pendingUnlockRequests: number;
  suspensionRequests: number;
  activityToReview: number;
  flaggedItems: number;
  /** issue 32: typed lines that raised an alert this week (self-harm, bullying…) */
  alerts: number;
  securityEvents: number;
  /** issue 34: distinct minutes Keyward for Chrome counted in the 7 days */
  screenTimeMinutes: number;
}

export interface TemplateParams {
  'initial-signup': { url: string };
  'magic-link': { url: string };
  /** Issue 12: the account owner invited this address as a co-parent. */
  'parent-invite': { url: string; ownerEmail: string };
  'magic-link-no-account': { signupUrl: string };
  'password-reset': { url: string };
  'password-reset-no-account': { signupUrl: string };
  're-signup': { loginUrl: string; resetUrl: string };
  /** To the operator: a parent asked for a public keychain that does not exist yet. */
  'keychain-request': { parentEmail: string; searchQuery: string; description: string };
  /** §6.2: one or several unlock requests of one batch; `fallback` = the parent has no rules. */
  'notify-unlock-request': {
    childName: string;
    count: number;
    /** What the child asked for (the first few targets), shown as a list. */
    targets: string[];
    comment: string | null;
    url: string;
    fallback?: FallbackParagraph;
  };
  /** `count` > 1 (issue 19): the child's requests of one window; duration and comment: the latest's. */
  'notify-suspend-filter': {
    childName: string;
    count: number;
    durationSeconds: number;
    comment: string | null;
    url: string;
    fallback?: FallbackParagraph;
  };
  /** Issue 34: a child asks for more screen time today (from the Time's up page). */
  'notify-more-time': {
    childName: string;
    count: number;
    minutes: number;
    comment: string | null;
    url: string;
    fallback?: FallbackParagraph;
  };
  /** `count` > 1 (issue 19): the child's events of one window; summary and explanation: the latest's. */
  'notify-security-event': {
    childName: string;
    count: number;
    /** "<words>: <detail>" */
    summary: string;
    explanation: string | null;
    url: string;
  };
  /** Issue 24: alerts on what a child typed. The words and the text stay on the server. */
  'notify-activity-alert': {
    childName: string;
    count: number;
    /** "self-harm, bullying" */
    categories: string;
    url: string;
    fallback?: FallbackParagraph;
  };
  'verify-notification-email': { code: number };
  /** To the operator: a checkout was cancelled or ended in an unexpected state (§8.2). */
  'billing-alert': { parentEmail: string; message: string };
  /** Account lifecycle emails of the daily subscription job (§8.1). */
  'delete-email-unverified': { signupUrl: string };
  'trial-ending-soon': { trialLengthDays: number; daysRemaining: number; url: string };
  'trial-ended-to-overdue': { url: string };
  'overdue-to-unpaid': { url: string };
  'paid-to-overdue': { url: string };
  'unpaid-to-pending-delete': { url: string; daysUntilDeletion: number };
  /** Sign-in security changes of one person (issue 12); `settingsUrl` = /settings. */
  'totp-enabled': { settingsUrl: string };
  'totp-disabled': { settingsUrl: string };
  'recovery-code-used': { codesLeft: number; settingsUrl: string };
  'passkey-added': { name: string; settingsUrl: string };
  'passkey-removed': { name: string; settingsUrl: string };
  /** Issue 23: the weekly report, per child; `unsubscribeUrl` stops it in one click. */
  'weekly-report': {
    children: ChildWeek[];
    url: string;
    unsubscribeUrl: string;
  };
  /** The family's data export is ready: a signed link that expires. */
  'data-export-ready': { url: string; expiresInHours: number };
}

export type TemplateName = keyof TemplateParams;

/** The fallback email's paragraph: why it came to the account address (issue 32: no rule at all,
 * or none for this kind of event). */
export interface FallbackParagraph {
  settingsUrl: string;
  noRulesAtAll: boolean;
}

export function noNotificationsParagraph(appName: string, fallback: FallbackParagraph): string {
  const { settingsUrl } = fallback;
  if (!fallback.noRulesAtAll) {
    return `You are getting this email at your account email address because none of your notification rules is for this kind of event, and ${appName} never leaves it unsent. To choose how you are notified of it, go to Settings: ${settingsUrl}`;
  }
  return `You are getting this email because you haven't set up any notifications yet, so ${appName} sends them to your account email address. To choose how you are notified (email, text message or Slack) and for which events, go to Settings: ${settingsUrl}`;
}

/** "10 minutes", "1 hour and 30 minutes", "45 seconds". */
export function durationInWords(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total % 60;
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const parts = [
    ...(hours > 0 ? [part(hours, 'hour')] : []),
    ...(minutes > 0 ? [part(minutes, 'minute')] : []),
    ...(rest > 0 || total === 0 ? [part(rest, 'second')] : []),
  ];
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

export interface TemplateContext {
  appName: string;
  supportEmail: string;
  currentYear: number;
}

interface TemplateParts {
  subject: string;
  /** Paragraphs of plain text (no markup). */
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Paragraphs after the button. */
  footnotes?: string[];
  /** issue 32: a last line whose link shows as its label in HTML ("Stop the weekly report"), not
   * as a raw URL wider than the email; the plain text gives the URL after the label */
  footLink?: { before: string; label: string; url: string };
}

type Templates = {
  [Name in TemplateName]: (params: TemplateParams[Name], ctx: TemplateContext) => TemplateParts;
};

const NOT_YOU =
  "If this wasn't you, change your password now and check Sign-in security in Settings.";

const templates: Templates = {
  'initial-signup': ({ url }, { appName }) => ({
    subject: `Verify your email to start using ${appName}`,
    paragraphs: [
      `Welcome to ${appName}! Please confirm your email address to finish creating your account.`,
    ],
    action: { label: 'Verify my email', url },
    footnotes: ['This link works for 24 hours. If you did not sign up, you can ignore this email.'],
  }),
  'parent-invite': ({ url, ownerEmail }, { appName }) => ({
    subject: `${ownerEmail} invited you to ${appName}`,
    paragraphs: [
      `${ownerEmail} invited you to help look after their family on ${appName}: you will see and manage the same children, computers, keychains and requests.`,
      'Click the button below to choose your password.',
    ],
    action: { label: 'Accept the invitation', url },
    footnotes: [
      'This link works once, for 7 days. If you did not expect it, you can ignore this email.',
    ],
  }),
  'magic-link': ({ url }, { appName }) => ({
    subject: `Your ${appName} login link`,
    paragraphs: [`Click the button below to log in to ${appName}.`],
    action: { label: 'Log in', url },
    footnotes: [
      'This link works once, for 60 minutes. If you did not ask for it, you can ignore this email.',
    ],
  }),
  'magic-link-no-account': ({ signupUrl }, { appName }) => ({
    subject: `${appName} login link requested`,
    paragraphs: [
      `Someone asked for a ${appName} login link for this email address, but there is no account for it.`,
      'If you meant to create one, you can sign up here:',
    ],
    action: { label: 'Create an account', url: signupUrl },
    footnotes: ['If you did not ask for this, you can ignore this email.'],
  }),
  'password-reset': ({ url }, { appName }) => ({
    subject: `Reset your ${appName} password`,
    paragraphs: ['We received a request to reset your password. Click below to choose a new one.'],
    action: { label: 'Reset my password', url },
    footnotes: [
      'This link works once, for 60 minutes. If you did not ask for it, your password has not changed and you can ignore this email.',
    ],
  }),
  'password-reset-no-account': ({ signupUrl }, { appName }) => ({
    subject: `${appName} password reset requested`,
    paragraphs: [
      `Someone asked to reset the ${appName} password for this email address, but there is no account for it.`,
      'If you meant to create one, you can sign up here:',
    ],
    action: { label: 'Create an account', url: signupUrl },
    footnotes: ['If you did not ask for this, you can ignore this email.'],
  }),
  're-signup': ({ loginUrl, resetUrl }, { appName }) => ({
    subject: `You already have a ${appName} account`,
    paragraphs: [
      `Someone tried to sign up for ${appName} with this email address, but you already have an account. You can log in here:`,
    ],
    action: { label: 'Log in', url: loginUrl },
    footnotes: [`Forgot your password? Reset it at ${resetUrl}`],
  }),
  'keychain-request': ({ parentEmail, searchQuery, description }, { appName }) => ({
    subject: `${appName}: public keychain requested`,
    paragraphs: [
      `${parentEmail} asked for a public keychain.`,
      `They searched for: ${searchQuery === '' ? '(nothing)' : searchQuery}`,
      `What they need: ${description}`,
    ],
  }),
  'notify-unlock-request': (
    { childName, count, targets, comment, url, fallback },
    { appName },
  ) => ({
    subject:
      count === 1
        ? `New unlock request from ${childName}`
        : `${count} new unlock requests from ${childName}`,
    paragraphs: [
      ...(targets.length === 0
        ? [
            count === 1
              ? `${childName} sent an unlock request.`
              : `${childName} sent ${count} unlock requests.`,
          ]
        : [
            count === 1
              ? `${childName} asked to unlock:`
              : `${childName} asked to unlock ${count} things:`,
            // one target per line, so a child's URL never runs into the words around it
            [
              ...targets,
              ...(targets.length < count ? [`…and ${count - targets.length} more`] : []),
            ].join('\n'),
          ]),
      ...(comment ? [`${childName}'s comment: "${comment}"`] : []),
      'View the details and approve or deny:',
    ],
    action: { label: count === 1 ? 'View the request' : 'View the requests', url },
    footnotes: fallback ? [noNotificationsParagraph(appName, fallback)] : [],
  }),
  'notify-more-time': ({ childName, count, minutes, comment, url, fallback }, { appName }) => ({
    subject:
      count === 1
        ? `${childName} asks for more screen time`
        : `${childName} asked ${count} times for more screen time`,
    paragraphs: [
      count === 1
        ? `${childName} used today's screen time and asks for ${minutesInWords(minutes)} more.`
        : `${childName} asked ${count} times for more screen time today. The latest asks for ${minutesInWords(minutes)} more.`,
      ...(comment ? [`${childName}'s comment: "${comment}"`] : []),
      'Allow more time or deny it in your inbox:',
    ],
    action: { label: 'Open the inbox', url },
    footnotes: fallback ? [noNotificationsParagraph(appName, fallback)] : [],
  }),
  'notify-suspend-filter': (
    { childName, count, durationSeconds, comment, url, fallback },
    { appName },
  ) => ({
    subject:
      count === 1
        ? `New suspend filter request from ${childName}`
        : `${count} new suspend filter requests from ${childName}`,
    paragraphs: [
      count === 1
        ? `${childName} asked to suspend the filter for ${durationInWords(durationSeconds)}.`
        : `${childName} sent ${count} suspension requests. The latest asks to suspend the filter for ${durationInWords(durationSeconds)}.`,
      ...(comment ? [`${childName}'s comment: "${comment}"`] : []),
      'View the details and approve or deny:',
    ],
    action: { label: count === 1 ? 'View the request' : 'View the latest request', url },
    footnotes: fallback ? [noNotificationsParagraph(appName, fallback)] : [],
  }),
  'notify-security-event': ({ childName, count, summary, explanation, url }) => ({
    subject:
      count === 1
        ? `Security event for child: ${childName}`
        : `${count} security events for child: ${childName}`,
    paragraphs: [
      count === 1
        ? `Received security event: "${summary}" for child ${childName}.`
        : `Received ${count} security events for child ${childName}. The latest: "${summary}".`,
      ...(explanation ? [explanation] : []),
    ],
    action: { label: 'View security events', url },
  }),
  'notify-activity-alert': ({ childName, count, categories, url, fallback }, { appName }) => ({
    subject:
      count === 1
        ? `Alert on what ${childName} typed`
        : `${count} alerts on what ${childName} typed`,
    paragraphs: [
      count === 1
        ? `Something ${childName} typed matched an alert (${categories}). It is flagged and shown first in ${childName}'s activity.`
        : `${count} things ${childName} typed matched alerts (${categories}). They are flagged and shown first in ${childName}'s activity.`,
      'Review what was typed:',
    ],
    action: { label: count === 1 ? 'Review the alert' : 'Review the alerts', url },
    footnotes: fallback ? [noNotificationsParagraph(appName, fallback)] : [],
  }),
  'weekly-report': ({ children, url, unsubscribeUrl }, { appName }) => {
    const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
    return {
      subject: `Your ${appName} weekly report`,
      paragraphs: [
        'Here is what happened in the last 7 days.',
        ...(children.length === 0
          ? ['No children yet: add one in the dashboard to see their week here.']
          : children.map((child) =>
              [
                `${child.name}:`,
                ...(child.alerts > 0
                  ? [
                      `- ${plural(child.alerts, 'alert')} on what ${child.name} typed: look at these first`,
                    ]
                  : []),
                `- ${plural(child.unlockRequests, 'unlock request')}${child.pendingUnlockRequests > 0 ? ` (${child.pendingUnlockRequests} still waiting for you)` : ''}`,
                `- ${plural(child.suspensionRequests, 'suspension request')}`,
                `- ${plural(child.activityToReview, 'activity item')} to review`,
                `- ${plural(child.flaggedItems, 'flagged item')}`,
                `- ${plural(child.securityEvents, 'security event')}`,
                ...(child.screenTimeMinutes > 0
                  ? [`- ${minutesInWords(child.screenTimeMinutes)} of screen time`]
                  : []),
              ].join('\n'),
            )),
      ],
      action: { label: 'Open the dashboard', url },
      footLink: {
        before: 'You get this report every Sunday evening.',
        label: 'Stop the weekly report with one click',
        url: unsubscribeUrl,
      },
    };
  },
  'billing-alert': ({ parentEmail, message }, { appName }) => ({
    subject: `${appName}: billing alert`,
    paragraphs: [`Account: ${parentEmail}`, message],
  }),
  'delete-email-unverified': ({ signupUrl }, { appName }) => ({
    subject: `Your ${appName} signup was not completed`,
    paragraphs: [
      `You started creating a ${appName} account with this email address but never verified it, so we have removed it.`,
      'You are welcome to sign up again at any time:',
    ],
    action: { label: 'Sign up', url: signupUrl },
  }),
  'trial-ending-soon': ({ trialLengthDays, daysRemaining, url }, { appName }) => ({
    subject: `Your ${appName} trial ends in ${daysRemaining} day${daysRemaining === 1 ? '' : 's'}`,
    paragraphs: [
      `Thanks for trying ${appName}! Your ${trialLengthDays}-day free trial ends in ${daysRemaining} day${daysRemaining === 1 ? '' : 's'}.`,
      'To keep protecting your children without a break, start your subscription from Settings:',
    ],
    action: { label: 'Start subscription', url },
  }),
  'trial-ended-to-overdue': ({ url }, { appName }) => ({
    subject: `Your ${appName} trial has ended`,
    paragraphs: [
      `Your free trial of ${appName} has ended. Your children's computers stay protected for 7 more days; after that the filter stops working until a subscription is started.`,
    ],
    action: { label: 'Start subscription', url },
  }),
  'overdue-to-unpaid': ({ url }, { appName }) => ({
    subject: `${appName} is paused: payment required`,
    paragraphs: [
      `We haven't received a payment, so ${appName} is no longer protecting your children's computers. Your settings are kept: start a subscription to switch protection back on.`,
    ],
    action: { label: 'Resolve payment status', url },
  }),
  'paid-to-overdue': ({ url }, { appName }) => ({
    subject: `Your ${appName} payment didn't go through`,
    paragraphs: [
      `We couldn't renew your ${appName} subscription. Protection continues for 14 more days: please check your payment details.`,
    ],
    action: { label: 'Resolve payment status', url },
  }),
  'unpaid-to-pending-delete': ({ url, daysUntilDeletion }, { appName }) => ({
    subject: `Your ${appName} account will be deleted in ${daysUntilDeletion} days`,
    paragraphs: [
      `Your ${appName} account has been unpaid for a year. In ${daysUntilDeletion} days it will be deleted with all its children, keychains and activity. To keep it, start a subscription:`,
    ],
    action: { label: 'Resolve payment status', url },
  }),
  'totp-enabled': ({ settingsUrl }, { appName }) => ({
    subject: `Two-step sign-in is on for your ${appName} account`,
    paragraphs: [
      `An authenticator app was set up for your ${appName} account. From now on, signing in asks for a code from that app after your password or login link.`,
    ],
    action: { label: 'Review sign-in security', url: settingsUrl },
    footnotes: [NOT_YOU],
  }),
  'totp-disabled': ({ settingsUrl }, { appName }) => ({
    subject: `Two-step sign-in was turned off for your ${appName} account`,
    paragraphs: [
      `The authenticator app was removed from your ${appName} account, and its recovery codes no longer work.`,
    ],
    action: { label: 'Review sign-in security', url: settingsUrl },
    footnotes: [NOT_YOU],
  }),
  'recovery-code-used': ({ codesLeft, settingsUrl }, { appName }) => ({
    subject: `A recovery code was used to sign in to ${appName}`,
    paragraphs: [
      `Someone signed in to your ${appName} account with one of your recovery codes. Each code works once; you have ${codesLeft} left.`,
    ],
    action: { label: 'Review sign-in security', url: settingsUrl },
    footnotes: [NOT_YOU],
  }),
  'passkey-added': ({ name, settingsUrl }, { appName }) => ({
    subject: `A passkey was added to your ${appName} account`,
    paragraphs: [`The passkey "${name}" can now be used to sign in to your ${appName} account.`],
    action: { label: 'Review sign-in security', url: settingsUrl },
    footnotes: [NOT_YOU],
  }),
  'passkey-removed': ({ name, settingsUrl }, { appName }) => ({
    subject: `A passkey was removed from your ${appName} account`,
    paragraphs: [`The passkey "${name}" can no longer be used to sign in to ${appName}.`],
    action: { label: 'Review sign-in security', url: settingsUrl },
    footnotes: [NOT_YOU],
  }),
  'data-export-ready': ({ url, expiresInHours }, { appName }) => ({
    subject: `Your ${appName} data is ready to download`,
    paragraphs: [
      `The copy of your family's ${appName} data that you asked for is ready: a ZIP file with your account, children, computers, keychains, requests, notifications, security events and activity, screenshots included.`,
    ],
    action: { label: 'Download my data', url },
    footnotes: [
      `This link works for ${expiresInHours} hours. If you did not ask for this, change your password now.`,
    ],
  }),
  'verify-notification-email': ({ code }, { appName }) => ({
    subject: `Your ${appName} verification code`,
    paragraphs: [
      `Your verification code is ${code}`,
      `Enter it in ${appName} to start receiving notifications at this address. It works once, for 60 minutes.`,
    ],
    footnotes: ['If you did not ask for this, you can ignore this email.'],
  }),
};

export interface RenderedEmail {
  template: TemplateName;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

export function renderEmail<Name extends TemplateName>(
  template: Name,
  params: TemplateParams[Name],
  ctx: TemplateContext,
): RenderedEmail {
  const parts = templates[template](params, ctx);
  const ref = randomBytes(4).toString('hex').slice(0, 5);
  const subject = `${parts.subject} [ref:${ref}]`;
  const footer = `© ${ctx.currentYear} ${ctx.appName} · Questions? Write to ${ctx.supportEmail}`;

  const text = [
    ...parts.paragraphs,
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`] : []),
    ...(parts.footnotes ?? []),
    ...(parts.footLink
      ? [`${parts.footLink.before} ${parts.footLink.label}: ${parts.footLink.url}`]
      : []),
    '—',
    footer,
  ].join('\n\n');

  const p = (value: string) =>
    `<p style="margin:0 0 16px">${escapeHtml(value)
      .replace(URL_PATTERN, (url) => `<a href="${url}" style="word-break:break-all">${url}</a>`)
      .replace(/\n/g, '<br>')}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">',
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(ctx.appName)}</h1>`,
    ...parts.paragraphs.map(p),
    parts.action
      ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#4f46e5;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(parts.action.label)}</a></p>`
      : '',
    ...(parts.footnotes ?? []).map(p),
    parts.footLink
      ? `<p style="margin:0 0 16px">${escapeHtml(parts.footLink.before)} <a href="${escapeHtml(parts.footLink.url)}">${escapeHtml(parts.footLink.label)}</a></p>`
      : '',
    `<p style="margin:32px 0 0;font-size:12px;color:#6b7280">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('\n');

  const links = [...new Set(text.match(URL_PATTERN) ?? [])];
  return { template, subject, text, html, links };
}
