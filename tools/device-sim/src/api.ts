import { macosApp, type MacosAppInput, type MacosAppOperation } from '@keyward/contract/device';
import { APP_TAGS } from '@keyward/contract/constants';
import { ServerPqlError } from '@keyward/contract/errors';
import { macApp } from '@keyward/contract/swift-apps';
import { type AnyType, decodeSwift, SwiftDecodingError } from '@keyward/contract/swift-codable';
import type { z } from 'zod';

// Typed client of the Mac device API (`POST /pairql/macos-app/{Op}`), sending what the Mac app
// sends (the token upper case, as Swift prints a UUID; the body as its JSONEncoder writes it).
// Every success body is read as the app reads it (the Swift oracle, swift-apps.ts) and validated
// against the contract, so an answer the real app could not decode fails here too.

export type DeviceOutput<Op extends MacosAppOperation> = z.output<(typeof macosApp)[Op]['output']>;

/** A device API error body, or a failure to reach the server or to read its answer. */
export class DeviceApiError extends Error {
  readonly body: ServerPqlError | undefined;
  readonly status: number | undefined;

  constructor(message: string, body?: ServerPqlError, status?: number) {
    super(message);
    this.name = 'DeviceApiError';
    this.body = body;
    this.status = status;
  }

  /** The token is unknown or revoked: the parent removed this computer (or its child). */
  get isConnectionRemoved(): boolean {
    return this.body?.appTag === APP_TAGS.userTokenNotFound;
  }
}

export const CONNECTION_REMOVED_MESSAGE = "This computer's connection was removed.";

export interface DeviceClientOptions {
  serverUrl: string;
  /** `X-UserToken`; needed by every operation except ConnectUser and TrustedTime. */
  token?: string;
  signal?: AbortSignal;
}

export interface DeviceCallResult<Op extends MacosAppOperation> {
  output: DeviceOutput<Op>;
  /** the JSON exactly as the server sent it */
  json: unknown;
}

export function operationUrl(serverUrl: string, op: MacosAppOperation): string {
  return `${serverUrl.replace(/\/+$/, '')}/pairql/macos-app/${op}`;
}

/**
 * One PairQL call (Mac and iOS device APIs alike): POST the JSON body, read the error body of the
 * contract on failure, and validate a success against the operation's output schema.
 */
export async function postOperation(call: {
  op: string;
  url: string;
  serverUrl: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  output: z.ZodType;
  /** the answer's type as the Swift app decodes it: a mismatch fails like the app's decode */
  swiftOutput?: AnyType;
}): Promise<{ output: unknown; json: unknown }> {
  const { op } = call;
  let response: Response;
  try {
    response = await fetch(call.url, {
      method: 'POST',
      headers: call.headers,
      body: call.body,
      signal: call.signal,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DeviceApiError(`Could not reach the server at ${call.serverUrl}: ${reason}`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DeviceApiError(
      `${op}: the server answered HTTP ${response.status} with a body that is not JSON`,
      undefined,
      response.status,
    );
  }
  if (!response.ok) {
    const body = ServerPqlError.safeParse(json);
    if (!body.success) {
      throw new DeviceApiError(
        `${op}: HTTP ${response.status} with an unexpected error body`,
        undefined,
        response.status,
      );
    }
    throw new DeviceApiError(
      body.data.userMessage ?? body.data.debugMessage,
      body.data,
      response.status,
    );
  }
  if (call.swiftOutput) {
    try {
      decodeSwift(call.swiftOutput, json);
    } catch (error) {
      if (!(error instanceof SwiftDecodingError)) throw error;
      throw new DeviceApiError(
        `${op}: the app could not decode the server's answer (${error.message})`,
      );
    }
  }
  const parsed = call.output.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
      .join('; ');
    throw new DeviceApiError(
      `${op}: the server's answer does not match the contract (${problems})`,
    );
  }
  return { output: parsed.data, json };
}

export function createDeviceClient(options: DeviceClientOptions) {
  async function request<Op extends MacosAppOperation>(
    op: Op,
    input: MacosAppInput<Op>,
  ): Promise<DeviceCallResult<Op>> {
    const def = macosApp[op];
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (def.auth === 'device') {
      if (!options.token) throw new DeviceApiError(`${op} needs a connected computer`);
      headers['X-UserToken'] = options.token.toUpperCase();
    }
    const { output, json } = await postOperation({
      op,
      url: operationUrl(options.serverUrl, op),
      serverUrl: options.serverUrl,
      headers,
      body: def.input === null ? undefined : JSON.stringify(input),
      signal: options.signal,
      output: def.output,
      swiftOutput: op in macApp ? macApp[op as keyof typeof macApp].output : undefined,
    });
    return { output: output as DeviceOutput<Op>, json };
  }

  return {
    request,
    async call<Op extends MacosAppOperation>(
      op: Op,
      input: MacosAppInput<Op>,
    ): Promise<DeviceOutput<Op>> {
      return (await request(op, input)).output;
    },
  };
}

export type DeviceClient = ReturnType<typeof createDeviceClient>;

/** What to tell the person at the terminal about a failed call. */
export function describeApiError(error: DeviceApiError): string {
  if (error.isConnectionRemoved) {
    return `${CONNECTION_REMOVED_MESSAGE} Ask the parent for a new connection code and run connect again.`;
  }
  const body = error.body;
  if (!body) return error.message;
  const main = body.userMessage ?? body.debugMessage;
  const debug = body.userMessage && body.debugMessage !== body.userMessage ? body.debugMessage : '';
  return debug ? `${main} (${debug}; error ${body.id})` : `${main} (error ${body.id})`;
}
