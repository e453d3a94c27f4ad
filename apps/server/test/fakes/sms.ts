import { type FakeHttpServer, parseBody, sendJson, startFakeHttpServer } from './http.ts';

// A fake Twilio-compatible SMS REST API: records every POST to
// /2010-04-01/Accounts/{sid}/Messages.json (path sid, basic-auth user and password, form fields)
// and answers 201 like Twilio, or the failure it was told to give. It enforces nothing.
// Server env: SMS_API_URL = fake.url, plus SMS_ACCOUNT_SID / SMS_AUTH_TOKEN / SMS_FROM.

export interface RecordedText {
  path: string;
  accountSid: string;
  auth: { username: string; password: string } | null;
  contentType: string;
  fields: Record<string, string>;
  From: string;
  To: string;
  Body: string;
}

export interface FakeSmsApi {
  url: string;
  texts: RecordedText[];
  /** Every later request answers this status and JSON body (until `succeed()`). */
  fail(status?: number, body?: unknown): void;
  /** Only texts to this number fail. */
  failFor(to: string, status?: number, body?: unknown): void;
  succeed(): void;
  close(): Promise<void>;
}

const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

export async function startFakeSmsApi(): Promise<FakeSmsApi> {
  const texts: RecordedText[] = [];
  let failure: { to?: string; status: number; body: unknown } | undefined;
  let sid = 0;
  const server: FakeHttpServer = await startFakeHttpServer((request, raw, response) => {
    const path = request.url ?? '';
    const match = MESSAGES_PATH.exec(path);
    const fields = parseBody(request, raw) as Record<string, string>;
    const header = request.headers.authorization ?? '';
    let auth: RecordedText['auth'] = null;
    if (header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      auth = { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
    }
    texts.push({
      path,
      accountSid: match ? decodeURIComponent(match[1]!) : '',
      auth,
      contentType: request.headers['content-type'] ?? '',
      fields,
      From: fields.From ?? '',
      To: fields.To ?? '',
      Body: fields.Body ?? '',
    });
    if (request.method !== 'POST' || !match) {
      sendJson(response, 404, { code: 20404, message: 'The requested resource was not found' });
      return;
    }
    if (failure && (failure.to === undefined || failure.to === fields.To)) {
      sendJson(response, failure.status, failure.body);
      return;
    }
    sid += 1;
    sendJson(response, 201, {
      sid: `SM${String(sid).padStart(32, '0')}`,
      status: 'queued',
      to: fields.To,
      from: fields.From,
      body: fields.Body,
    });
  });
  const defaultFailure = { code: 21211, message: "The 'To' number is not a valid phone number." };
  return {
    url: server.origin,
    texts,
    fail(status = 400, body = defaultFailure) {
      failure = { status, body };
    },
    failFor(to, status = 400, body = defaultFailure) {
      failure = { to, status, body };
    },
    succeed() {
      failure = undefined;
    },
    close: server.close,
  };
}
