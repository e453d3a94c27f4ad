import { describe, expect, test } from 'vitest';
import {
  callServer,
  channelUrlOf,
  connectProblem,
  normaliseServerUrl,
  ServerError,
  UnreachableError,
} from '../src/server.ts';

describe('normaliseServerUrl', () => {
  test.each<[string, string | undefined]>([
    ['keyward.example.com', 'https://keyward.example.com'],
    ['  https://Keyward.Example.com/dashboard  ', 'https://keyward.example.com'],
    ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080'],
    ['127.0.0.1:8080', 'https://127.0.0.1:8080'],
    ['ftp://keyward.example.com', undefined],
    ['', undefined],
    ['http://', undefined],
  ])('%j → %j', (typed, expected) => {
    expect(normaliseServerUrl(typed)).toBe(expected);
  });
});

test.each([
  ['https://keyward.example.com', 'wss://keyward.example.com/browser-filter/channel'],
  ['http://127.0.0.1:8080', 'ws://127.0.0.1:8080/browser-filter/channel'],
])('the channel of %s is %s', (server, channel) => {
  expect(channelUrlOf(server)).toBe(channel);
});

describe('callServer', () => {
  const fakeFetch =
    (status: number, body: string): typeof fetch =>
    async (input, init) => {
      expect(String(input)).toBe('http://127.0.0.1:9/pairql/browser-filter/CheckIn');
      expect(init?.method).toBe('POST');
      expect((init!.headers as Record<string, string>)['x-browsertoken']).toBe('token-1');
      return new Response(body, { status });
    };
  const checkIn = (fetchImpl: typeof fetch) =>
    callServer(
      'http://127.0.0.1:9',
      'CheckIn',
      { extensionVersion: '1.0.0', browserVersion: '121.0.1', incognitoAllowed: true },
      'token-1',
      fetchImpl,
    );

  test('returns the JSON body', async () => {
    await expect(checkIn(fakeFetch(200, '{"childName":"Kai"}'))).resolves.toEqual({
      childName: 'Kai',
    });
  });

  test('an error body becomes a ServerError; 401 means the token was refused', async () => {
    const error = await checkIn(fakeFetch(401, '{"type":"loggedOut","userMessage":"Gone"}')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 401, type: 'loggedOut', userMessage: 'Gone' });
    expect((error as ServerError).isTokenRefused).toBe(true);
  });

  test('no answer is UnreachableError', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(checkIn(failing)).rejects.toBeInstanceOf(UnreachableError);
  });
});

describe('connectProblem: plain words on the setup page', () => {
  test.each<[unknown, RegExp]>([
    [new UnreachableError('x'), /can't reach https:\/\/k\.example/],
    [new ServerError(401, 'unauthorized', undefined), /code didn't work.*new code/],
    [
      new ServerError(401, 'unauthorized', 'Connection code expired, or not found.'),
      /^Connection code expired/,
    ],
    [new ServerError(429, 'badRequest', undefined), /Too many tries/],
    [new ServerError(500, 'serverError', undefined), /server had a problem/],
  ])('%s', (error, words) => {
    expect(connectProblem(error, 'https://k.example')).toMatch(words);
  });
});
