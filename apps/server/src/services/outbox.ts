import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

// The local stand-in for texts and Slack messages (server-behaviour §6.3): without a provider each
// message is written as a text file under DATA_DIR/outbox/ (emails have their own .eml writer in
// mail.ts). The caller logs the message so its links and codes can be followed from the log.

export async function writeToOutbox(
  dataDir: string,
  kind: 'text' | 'slack',
  content: string,
): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  await mkdir(outbox, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(outbox, `${stamp}-${kind}-${randomBytes(3).toString('hex')}.txt`);
  await writeFile(file, content);
  return file;
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+/g;

export function linksIn(text: string): string[] {
  return [...new Set(text.match(URL_PATTERN) ?? [])];
}
