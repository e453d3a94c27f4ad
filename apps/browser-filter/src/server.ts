import type {
  BrowserFilterInput,
  BrowserFilterOperation,
  BrowserFilterOutput,
} from '@keyward/contract/browser';

// The extension's side of `POST /pairql/browser-filter/{Op}`: plain JSON in and out, the token in
// `X-BrowserToken`, errors as 4xx JSON bodies `{ type, userMessage? }`.

/** The server answered with an error body. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly userMessage: string | undefined,
  ) {
    super(`${status} ${type}${userMessage ? `: ${userMessage}` : ''}`);
  }

  /** The server no longer knows this browser's token: the parent removed it. */
  get isTokenRefused(): boolean {
    return this.status === 401;
  }
}

/** No answer at all: offline, wrong address, or the server is down. */
export class UnreachableError extends Error {}

export async function callServer<Op extends BrowserFilterOperation>(
  serverUrl: string,
  op: Op,
  input: BrowserFilterInput<Op>,
  token?: string,
  fetchImpl: typeof fetch = fetch,
): Promise<BrowserFilterOutput<Op>> {
  let response: Response;
  try {
    response = await fetchImpl(`${serverUrl}/pairql/browser-filter/${op}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { 'x-browsertoken': token } : {}),
      },
      body: JSON.stringify(input),
    });
  } catch (error) {
    throw new UnreachableError(error instanceof Error ? error.message : String(error));
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body ?? {}) as { type?: unknown; userMessage?: unknown };
    throw new ServerError(
      response.status,
      typeof error.type === 'string' ? error.type : 'other',
      typeof error.userMessage === 'string' ? error.userMessage : undefined,
    );
  }
  return body as BrowserFilterOutput<Op>;
}

/**
 * What a person typed as the server's address, as an origin: `keyward.example` →
 * `https://keyward.example`, `http://127.0.0.1:8080/` → `http://127.0.0.1:8080`. Undefined when it
 * is not an address.
 */
export function normaliseServerUrl(typed: string): string | undefined {
  const trimmed = typed.trim();
  if (trimmed === '') return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (url.hostname === '') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** The push channel's address on the same server. */
export function channelUrlOf(serverUrl: string): string {
  const url = new URL('/browser-filter/channel', serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** The setup page's words for a failed connection, for a parent standing next to the child. */
export function connectProblem(error: unknown, serverUrl: string): string {
  if (error instanceof UnreachableError) {
    return `Keyward can't reach ${serverUrl}. Check the address and this computer's internet connection, then try again.`;
  }
  if (error instanceof ServerError) {
    if (error.status === 429) return 'Too many tries. Wait a minute, then try again.';
    if (error.status === 401 || error.status === 404) {
      return (
        error.userMessage ??
        "That code didn't work: it may be mistyped or expired. Get a new code from the Keyward dashboard and try again."
      );
    }
    if (error.status >= 500) {
      return 'The Keyward server had a problem. Try again in a moment.';
    }
    return error.userMessage ?? 'That did not work. Check the code and try again.';
  }
  return 'Something went wrong. Try again.';
}
