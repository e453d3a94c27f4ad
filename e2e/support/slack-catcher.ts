import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { expect } from '@playwright/test';

// A local stand-in for the Slack Web API (SLACK_API_URL of the e2e server). Like the mail catcher
// it lives in the Playwright runner process, so each call is written as JSON into a folder that the
// test workers read. It answers chat.postMessage with `{ ok: true }`, as Slack does.

export interface SlackCall {
  method: string;
  token: string | null;
  channel: string;
  text: string;
  receivedAt: number;
}

export interface SlackCatcher {
  url: string;
  close(): Promise<void>;
}

export async function startSlackCatcher(dir: string): Promise<SlackCatcher> {
  let sequence = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const isJson = (request.headers['content-type'] ?? '').includes('json');
      const fields: Record<string, unknown> = isJson
        ? JSON.parse(raw || '{}')
        : Object.fromEntries(new URLSearchParams(raw));
      const auth = request.headers.authorization ?? '';
      const call: SlackCall = {
        method: (request.url ?? '').replace(/^\/api\//, '').replace(/\?.*$/, ''),
        token: auth.startsWith('Bearer ') ? auth.slice(7) : null,
        channel: String(fields.channel ?? ''),
        text: String(fields.text ?? ''),
        receivedAt: Date.now(),
      };
      sequence += 1;
      // written whole, then renamed: a test reading the folder never sees half a call
      const name = join(dir, `${call.receivedAt}-${String(sequence).padStart(5, '0')}.json`);
      writeFileSync(`${name}.partial`, JSON.stringify(call));
      renameSync(`${name}.partial`, name);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ ok: true, channel: call.channel, ts: `${Date.now() / 1000}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/api/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The messages the e2e server posted to Slack, read by the test workers. */
export class SlackInbox {
  constructor(private readonly dir: string) {}

  all(): SlackCall[] {
    return readdirSync(this.dir)
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as SlackCall);
  }

  /** Waits for a chat.postMessage to `channel` whose text matches `pattern`. */
  async waitFor(channel: string, pattern: RegExp, since = 0): Promise<SlackCall> {
    let found: SlackCall | undefined;
    await expect
      .poll(
        () => {
          found = this.all().find(
            (call) =>
              call.method === 'chat.postMessage' &&
              call.channel === channel &&
              call.receivedAt >= since &&
              pattern.test(call.text),
          );
          return found !== undefined;
        },
        { timeout: 15_000, message: `a Slack message to ${channel} matching ${pattern}` },
      )
      .toBe(true);
    return found!;
  }
}
