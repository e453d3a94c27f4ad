import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Clock } from './clock.ts';
import {
  type RenderedEmail,
  renderEmail,
  type TemplateName,
  type TemplateParams,
} from './mail-templates.ts';

export interface OutgoingEmail extends RenderedEmail {
  to: string;
  /** Extra headers (issue 23: the weekly report's RFC 8058 List-Unsubscribe). */
  headers?: Record<string, string>;
}

/** The edge of the world for email: SMTP, the outbox folder, or a capturing fake in tests. */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}

/** What each outbox email is for, in the plain line printed for the person running the server. */
const OUTBOX_PURPOSE: Partial<Record<TemplateName, string>> = {
  'initial-signup': 'verify',
  'magic-link': 'log in',
  'magic-link-no-account': 'sign up',
  'password-reset': 'reset password',
  'password-reset-no-account': 'sign up',
  're-signup': 'log in or reset password',
  'verify-notification-email': 'verification code',
};

/**
 * One plain line per outbox email, easy to spot and copy among the JSON log lines, e.g.
 * `Email to a@b.c: verify → http://127.0.0.1:8080/verify-signup-email/…`.
 */
export function outboxLine(email: OutgoingEmail): string {
  const purpose = OUTBOX_PURPOSE[email.template] ?? email.template;
  const what = email.links.length > 0 ? email.links.join('  ') : `"${email.subject}"`;
  return `Email to ${email.to}: ${purpose} → ${what}`;
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'dataDir' | 'mailFrom' | 'supportEmail'>,
  log: FastifyBaseLogger,
  /** Where the outbox prints its plain lines (stdout; tests capture them). */
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Mailer {
  const envelope = (email: OutgoingEmail) => ({
    from: config.mailFrom,
    replyTo: config.supportEmail,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    ...(email.headers ? { headers: email.headers } : {}),
  });

  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(email) {
        await transport.sendMail(envelope(email));
        log.info({ to: email.to, template: email.template }, 'email sent');
      },
    };
  }

  // No SMTP: write each message as an .eml file, print its links in the log, and print one plain
  // line with them too (the JSON log is hard to read and copy from).
  const outbox = path.join(config.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    async send(email) {
      const info = await transport.sendMail(envelope(email));
      await mkdir(outbox, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(
        outbox,
        `${stamp}-${email.template}-${randomBytes(3).toString('hex')}.eml`,
      );
      await writeFile(file, info.message as Buffer);
      log.info(
        { to: email.to, template: email.template, file, links: email.links },
        `email "${email.subject}" to ${email.to} written to ${file}; links: ${email.links.join(' ')}`,
      );
      print(outboxLine(email));
    },
  };
}

export interface EmailService {
  send<Name extends TemplateName>(
    template: Name,
    to: string,
    params: TemplateParams[Name],
    options?: { headers?: Record<string, string> },
  ): Promise<void>;
}

export function createEmailService(
  mailer: Mailer,
  config: Pick<Config, 'appName' | 'supportEmail' | 'docsUrl'>,
  clock: Clock,
): EmailService {
  return {
    async send(template, to, params, options) {
      const rendered = renderEmail(template, params, {
        appName: config.appName,
        supportEmail: config.supportEmail,
        currentYear: clock.now().getUTCFullYear(),
      });
      await mailer.send({
        ...withHelpLink(rendered, config.docsUrl),
        to,
        ...(options?.headers ? { headers: options.headers } : {}),
      });
    },
  };
}

/**
 * Every email ends with the documentation link (DOCS_URL, by default the server's own
 * getting-started page). It is not one of the email's `links` (the actions printed in the log).
 */
export function withHelpLink<Email extends { text: string; html: string }>(
  email: Email,
  docsUrl: string,
): Email {
  const escaped = docsUrl.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return {
    ...email,
    text: `${email.text}\nHelp and guides: ${docsUrl}`,
    html: email.html.replace(
      '</body>',
      `<p style="margin:8px 0 0;font-size:12px;color:#6b7280">Help and guides: <a href="${escaped}">${escaped}</a></p>\n</body>`,
    ),
  };
}
