import { type FakeHttpServer, parseBody, sendJson, startFakeHttpServer } from './http.ts';

// A fake Slack Web API: records every call (method from the path, bearer token, body fields) and
// answers `{ ok: true }` like chat.postMessage, or the failure it was told to give. It enforces
// nothing. Server env: SLACK_API_URL = fake.url (it ends with /api/).

export interface RecordedSlackCall {
  method: string;
  /** From `Authorization: Bearer …` (null without that header). */
  token: string | null;
  contentType: string;
  fields: Record<string, unknown>;
  channel: string;
  text: string;
  username: string;
}

export interface FakeSlackApi {
  url: string;
  calls: RecordedSlackCall[];
  /** chat.postMessage calls only. */
  messages(): RecordedSlackCall[];
  /** Later calls answer `{ ok: false, error }` (HTTP 200, as Slack does), or an HTTP status. */
  fail(error?: string, options?: { channel?: string; httpStatus?: number }): void;
  succeed(): void;
  close(): Promise<void>;
}

export async function startFakeSlackApi(): Promise<FakeSlackApi> {
  const calls: RecordedSlackCall[] = [];
  let failure: { error: string; channel?: string; httpStatus?: number } | undefined;
  let ts = 1_700_000_000;
  const server: FakeHttpServer = await startFakeHttpServer((request, raw, response) => {
    const method = (request.url ?? '').replace(/^\/api\//, '').replace(/\?.*$/, '');
    const fields = parseBody(request, raw);
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : null;
    const call: RecordedSlackCall = {
      method,
      token,
      contentType: request.headers['content-type'] ?? '',
      fields,
      channel: String(fields.channel ?? ''),
      text: String(fields.text ?? ''),
      username: String(fields.username ?? ''),
    };
    calls.push(call);
    if (failure && (failure.channel === undefined || failure.channel === call.channel)) {
      if (failure.httpStatus) {
        response.writeHead(failure.httpStatus, { 'content-type': 'text/plain' });
        response.end('upstream error');
        return;
      }
      sendJson(response, 200, { ok: false, error: failure.error });
      return;
    }
    ts += 1;
    sendJson(response, 200, {
      ok: true,
      channel: call.channel,
      ts: `${ts}.000100`,
      message: { text: call.text, username: call.username },
    });
  });
  return {
    url: `${server.origin}/api/`,
    calls,
    messages: () => calls.filter((call) => call.method === 'chat.postMessage'),
    fail(error = 'channel_not_found', options = {}) {
      failure = { error, ...options };
    },
    succeed() {
      failure = undefined;
    },
    close: server.close,
  };
}
