import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { parseMail } from './mime.ts';

export interface StoredMail {
  receivedAt: number;
  envelopeTo: string[];
  subject: string;
  to: string[];
  from: string;
  text: string;
  html: string;
  links: string[];
}

export interface MailCatcher {
  port: number;
  close(): Promise<void>;
}

/**
 * Local SMTP server for the e2e run. It lives in the Playwright runner process, so each message
 * is written as JSON into `dir`, where the test workers (other processes) read it.
 */
export async function startMailCatcher(dir: string): Promise<MailCatcher> {
  let sequence = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        try {
          const parsed = parseMail(Buffer.concat(chunks).toString('utf8'));
          const mail: StoredMail = {
            receivedAt: Date.now(),
            envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject,
            to: parsed.to,
            from: parsed.from,
            text: parsed.text,
            html: parsed.html,
            links: parsed.links,
          };
          sequence += 1;
          const name = `${mail.receivedAt}-${String(sequence).padStart(5, '0')}.json`;
          // written whole, then renamed: a test reading the folder never sees half a mail
          writeFileSync(join(dir, `${name}.partial`), JSON.stringify(mail, null, 2));
          renameSync(join(dir, `${name}.partial`), join(dir, name));
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('SMTP catcher has no port');
  return {
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
