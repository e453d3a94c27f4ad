import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, test } from 'vitest';
import { createMailer, outboxLine } from '../src/services/mail.ts';
import { renderEmail } from '../src/services/mail-templates.ts';

const ctx = { appName: 'Keyward', supportEmail: 'support@keyward.local', currentYear: 2026 };
const dataDir = mkdtempSync(path.join(tmpdir(), 'kw-outbox-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('outbox mail (no SMTP_URL)', () => {
  test('writes the .eml and prints one plain line with the link, besides the JSON log', async () => {
    const printed: string[] = [];
    const mailer = createMailer(
      {
        smtpUrl: undefined,
        dataDir,
        mailFrom: 'Keyward <no-reply@keyward.local>',
        supportEmail: ctx.supportEmail,
      },
      { info: () => {} } as unknown as FastifyBaseLogger,
      (line) => printed.push(line),
    );
    const url = 'http://127.0.0.1:8080/verify-signup-email/0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706';
    await mailer.send({ to: 'a@b.c', ...renderEmail('initial-signup', { url }, ctx) });

    expect(printed).toEqual([`Email to a@b.c: verify → ${url}`]);
    const files = readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(dataDir, 'outbox', files[0] as string), 'utf8')).toContain(
      'To: a@b.c',
    );
  });

  test.each([
    ['magic-link', { url: 'http://h/otp/1' }, 'Email to p@q.r: log in → http://h/otp/1'],
    [
      'password-reset',
      { url: 'http://h/reset-password/2' },
      'Email to p@q.r: reset password → http://h/reset-password/2',
    ],
    [
      're-signup',
      { loginUrl: 'http://h/login', resetUrl: 'http://h/reset-password' },
      'Email to p@q.r: log in or reset password → http://h/login  http://h/reset-password',
    ],
  ] as const)('%s reads as one line', (template, params, line) => {
    const email = renderEmail(template, params as never, ctx);
    expect(outboxLine({ to: 'p@q.r', ...email })).toBe(line);
  });

  test('an email without links names its subject', () => {
    const email = renderEmail('verify-notification-email', { code: 123456 }, ctx);
    expect(outboxLine({ to: 'p@q.r', ...email })).toMatch(
      /^Email to p@q\.r: verification code → ".+"$/,
    );
  });
});
