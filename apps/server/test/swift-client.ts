import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import {
  type AppOperation,
  IOS_DEVICE_TOKEN_HEADER,
  IOS_PAIRQL_PATH,
  iosApp,
  MAC_PAIRQL_PATH,
  MAC_USER_TOKEN_HEADER,
  macApp,
} from '@keyward/contract/swift-apps';
import { decodeSwiftText, encodeSwift, type Infer } from '@keyward/contract/swift-codable';
import { expect } from 'vitest';
import type { TestServer } from './harness.ts';

// The device apps' HTTP client, as the device-wire suites use it: each operation is sent as the
// Swift app's `URLSession` request would be (a default-`JSONEncoder` body: upper-case UUIDs, dates
// as seconds since 2001-01-01, nil optionals omitted, `/` escaped; `Content-Type:
// application/x-www-form-urlencoded`, which Darwin adds to a POST with a body when none is set; the
// token header upper case; no body for an operation without input), and each answer is read with
// the app's `JSONDecoder` (@keyward/contract/swift-codable).

export interface Answer {
  status: number;
  text: string;
}

type Ops = typeof macApp | typeof iosApp;
type InputOf<O extends Ops, Op extends keyof O> = O[Op] extends { input: infer I }
  ? I extends null
    ? undefined
    : Infer<I>
  : never;
type OutputOf<O extends Ops, Op extends keyof O> = O[Op] extends { output: infer T }
  ? Infer<T>
  : never;

export type MacInput<Op extends keyof typeof macApp> = InputOf<typeof macApp, Op>;
export type MacOutput<Op extends keyof typeof macApp> = OutputOf<typeof macApp, Op>;
export type IosInput<Op extends keyof typeof iosApp> = InputOf<typeof iosApp, Op>;
export type IosOutput<Op extends keyof typeof iosApp> = OutputOf<typeof iosApp, Op>;

/** A default `JSONEncoder`'s text: compact, with `/` escaped as `\/`. */
export function swiftJsonText(json: unknown): string {
  return JSON.stringify(json).replaceAll('/', '\\/');
}

/** A POST as `URLSession` sends it, its answer decompressed as `URLSession` does. */
export async function urlSessionPost(
  server: TestServer,
  url: string,
  headers: Record<string, string>,
  json: unknown,
): Promise<Answer> {
  const response = await server.app.inject({
    method: 'POST',
    url,
    headers: {
      accept: '*/*',
      'accept-language': 'en-US,en;q=0.9',
      'accept-encoding': 'gzip, deflate, br',
      ...(json === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      ...headers,
    },
    ...(json === undefined ? {} : { payload: swiftJsonText(json) }),
  });
  const raw = response.rawPayload;
  const encoding = response.headers['content-encoding'];
  const bytes =
    encoding === 'gzip'
      ? gunzipSync(raw)
      : encoding === 'br'
        ? brotliDecompressSync(raw)
        : encoding === 'deflate'
          ? inflateSync(raw)
          : raw;
  return { status: response.statusCode, text: bytes.toString('utf8') };
}

/** One app's client: `send` answers whatever came back, `call` insists on a decodable 200. */
function appClient<O extends Ops>(
  server: TestServer,
  app: { name: string; ops: O; path: string; tokenHeader: string; tokenAuth: 'user' | 'device' },
) {
  function send<Op extends keyof O & string>(op: Op, input: InputOf<O, Op>, token?: string) {
    const def = app.ops[op] as AppOperation;
    const headers: Record<string, string> = {};
    if (def.auth === app.tokenAuth) {
      if (!token) throw new Error(`${op} needs a token`);
      headers[app.tokenHeader] = token.toUpperCase();
    }
    const body = def.input === null ? undefined : encodeSwift(def.input, input as never);
    return urlSessionPost(server, `${app.path}/${op}`, headers, body);
  }

  async function call<Op extends keyof O & string>(
    op: Op,
    input: InputOf<O, Op>,
    token?: string,
  ): Promise<OutputOf<O, Op>> {
    const answer = await send(op, input, token);
    expect(answer.status, `${op} answered ${answer.status}: ${answer.text}`).toBe(200);
    try {
      return decodeSwiftText((app.ops[op] as AppOperation).output, answer.text) as OutputOf<O, Op>;
    } catch (error) {
      throw new Error(
        `the ${app.name} app cannot decode ${op}'s answer: ${(error as Error).message}\n${answer.text.slice(0, 800)}`,
      );
    }
  }
  return { send, call };
}

export function macAppClient(server: TestServer) {
  return appClient(server, {
    name: 'Mac',
    ops: macApp,
    path: MAC_PAIRQL_PATH,
    tokenHeader: MAC_USER_TOKEN_HEADER,
    tokenAuth: 'user',
  });
}

export function iosAppClient(server: TestServer) {
  return appClient(server, {
    name: 'iOS',
    ops: iosApp,
    path: IOS_PAIRQL_PATH,
    tokenHeader: IOS_DEVICE_TOKEN_HEADER,
    tokenAuth: 'device',
  });
}
