import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StoredMail } from './mail-catcher.ts';

export interface MailQuery {
  to: string;
  subject?: string | RegExp;
  /** Only messages with a link matching this pattern. */
  link?: RegExp;
  /** Only messages received at or after this time (ms since epoch). */
  since?: number;
  timeoutMs?: number;
}

export interface Mail extends StoredMail {
  /** The first link matching the pattern; throws when there is none. */
  linkMatching(pattern: RegExp): string;
}

/** Reads what the SMTP catcher of the global setup received. */
export class Mailbox {
  constructor(private readonly dir: string) {}

  all(): StoredMail[] {
    return readdirSync(this.dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as StoredMail);
  }

  find(query: MailQuery): Mail[] {
    const to = query.to.toLowerCase();
    return this.all()
      .filter((mail) => mail.envelopeTo.includes(to) || mail.to.includes(to))
      .filter((mail) => query.since === undefined || mail.receivedAt >= query.since)
      .filter((mail) => matches(mail.subject, query.subject))
      .filter((mail) => !query.link || mail.links.some((link) => query.link!.test(link)))
      .map(withHelpers);
  }

  /** Waits for the newest message matching the query. */
  async waitFor(query: MailQuery): Promise<Mail> {
    const deadline = Date.now() + (query.timeoutMs ?? 15_000);
    for (;;) {
      const found = this.find(query);
      const newest = found[found.length - 1];
      if (newest) return newest;
      if (Date.now() > deadline) {
        const seen = this.all()
          .map((m) => `  to ${m.envelopeTo.join(',')}: "${m.subject}" links ${m.links.join(' ')}`)
          .join('\n');
        throw new Error(
          `No email matching ${describeQuery(query)} arrived.\nMessages received so far:\n${seen || '  (none)'}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

function matches(subject: string, wanted: string | RegExp | undefined): boolean {
  if (wanted === undefined) return true;
  return typeof wanted === 'string' ? subject.includes(wanted) : wanted.test(subject);
}

function withHelpers(mail: StoredMail): Mail {
  return {
    ...mail,
    linkMatching(pattern: RegExp) {
      const link = mail.links.find((l) => pattern.test(l));
      if (!link) throw new Error(`Email "${mail.subject}" has no link matching ${pattern}`);
      return link;
    },
  };
}

function describeQuery(query: MailQuery): string {
  const parts = [`to ${query.to}`];
  if (query.subject) parts.push(`subject ${query.subject}`);
  if (query.link) parts.push(`link ${query.link}`);
  return parts.join(', ');
}
