import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { UserData } from '@keyward/contract/device';
import { toSwiftReferenceSeconds } from '@keyward/contract/swift';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import { loadState } from '../src/state.ts';
import { CHILD_ID, checkInOutput, userData } from './fixtures.ts';
import { SimulatedMac, waitFor } from './helpers.ts';

// The CLI against a stand-in device server speaking the Mac app's wire (the contract's shapes). The same flows run
// against the real server in integration.test.ts; this file pins the CLI's own behaviour
// (printing, exit codes, channel handling) independently of it.

const CODE = 654321;
const TOKEN = 'a0e9f8c2-1d3b-4c5a-9e8f-7a6b5c4d3e2f';
const COMPUTER_USER_ID = 'b0e9f8c2-1d3b-4c5a-9e8f-7a6b5c4d3e2f';

function errorBody(id: string, debugMessage: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    type: 'unauthorized',
    requestId: 'r1',
    debugMessage,
    showContactSupport: false,
    statusCode: 401,
    version: 1,
    ...extra,
  };
}

let server: Server;
let sockets: WebSocketServer;
let serverUrl: string;
let settings: UserData;
let isTokenRevoked: boolean;
let isChannelRefused: boolean;
const calls: { op: string; body: unknown; token: string | undefined }[] = [];
/** text frames as the server received them, in the app's synthesized coding; `ping` for a ping */
const frames: unknown[] = [];
let channel: WebSocket | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk) => (text += chunk));
    request.on('end', () => {
      const op = request.url?.replace('/pairql/macos-app/', '') ?? '';
      const body = text ? JSON.parse(text) : undefined;
      // the app sends the token as Swift prints a UUID: upper case
      const token = (request.headers['x-usertoken'] as string | undefined)?.toLowerCase();
      calls.push({ op, body, token });
      const send = (status: number, json: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(json));
      };
      if (op === 'ConnectUser') {
        if (body.verificationCode !== CODE) {
          return send(
            401,
            errorBody('6e7fc234', 'Connection code not found', {
              appTag: 'connectionCodeNotFound',
              userMessage:
                'Connection code expired, or not found. Please create a new code and try again.',
            }),
          );
        }
        return send(200, {
          ...settings,
          token: TOKEN,
          deviceId: COMPUTER_USER_ID,
          connectedAt: '2025-01-15T12:00:00Z',
        });
      }
      if (token !== TOKEN || isTokenRevoked) {
        return send(
          401,
          errorBody('6e88d0de', 'User token not found', { appTag: 'userTokenNotFound' }),
        );
      }
      if (op === 'CheckIn_v2') return send(200, checkInOutput({ userData: settings }));
      if (op === 'Heartbeat') return send(200, { success: true });
      return send(404, { ...errorBody('0f5a25c9', 'unknown'), type: 'notFound', statusCode: 404 });
    });
  });
  sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    if (
      request.url !== '/app-websocket' ||
      request.headers.authorization !== `Bearer ${TOKEN.toUpperCase()}` ||
      isTokenRevoked ||
      isChannelRefused
    ) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => {
      channel = ws;
      ws.on('message', (data) => frames.push(JSON.parse(data.toString())));
      ws.on('ping', () => frames.push('ping'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const client of sockets.clients) client.terminate();
  sockets.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let mac: SimulatedMac;
beforeEach(() => {
  settings = userData();
  isTokenRevoked = false;
  isChannelRefused = false;
  calls.length = 0;
  frames.length = 0;
  channel = undefined;
  mac = new SimulatedMac(serverUrl);
});
afterEach(() => mac.cleanUp());

describe('connect', () => {
  test('a wrong code prints the server message and exits 1, saving nothing', async () => {
    const { code, printed } = await mac.capture(['connect', '111111']);
    expect(code).toBe(1);
    expect(printed).toContain(
      'Connection code expired, or not found. Please create a new code and try again.',
    );
    expect(await loadState(mac.stateFile)).toBeUndefined();
  });

  test('sends the Mac facts and remembers the connection and the serial number', async () => {
    const { code, printed } = await mac.capture(['connect', String(CODE), '--username', 'ana']);
    expect(code).toBe(0);
    expect(printed).toContain("is now Ana's computer");
    expect(printed).toContain(`Child: Ana (${CHILD_ID})`);
    const sent = calls.find((call) => call.op === 'ConnectUser')?.body as Record<string, unknown>;
    expect(sent).toMatchObject({
      verificationCode: CODE,
      appVersion: '2.6.0',
      modelIdentifier: 'MacBookAir10,1',
      username: 'ana',
      fullUsername: 'Child',
      numericId: 501,
      osVersion: '14.5.0',
      isAdmin: false,
    });
    const state = await loadState(mac.stateFile);
    expect(state).toMatchObject({
      serverUrl,
      token: TOKEN,
      computerUserId: COMPUTER_USER_ID,
      serialNumber: sent.serialNumber,
      filterState: { case: 'on' },
    });
    // reported right after connecting, with the new token, as the real app does
    expect(calls.at(-1)).toMatchObject({
      op: 'Heartbeat',
      body: { currentFilterState_v2: { _0: { on: {} } } },
    });
    expect(printed).toContain('Reported: filter on');

    // Reconnecting keeps the same computer.
    await mac.capture(['connect', String(CODE)]);
    expect(calls.filter((call) => call.op === 'ConnectUser')[1]?.body).toMatchObject({
      serialNumber: sent.serialNumber,
      username: 'ana',
    });
  });
});

describe('after connecting', () => {
  beforeEach(async () => {
    expect(await mac.run(['connect', String(CODE)])).toBe(0);
  });

  test('checkin prints the settings, and --json the raw output', async () => {
    settings = userData({ screenshotsEnabled: true });
    const { code, printed } = await mac.capture(['checkin']);
    expect(code).toBe(0);
    expect(printed).toContain('Account status: active');
    expect(printed).toContain('Screenshots: on, every 60 s, 800 px wide');
    expect(printed).toContain('screenshotsEnabled: false -> true');
    expect(calls.at(-1)).toMatchObject({
      op: 'CheckIn_v2',
      token: TOKEN,
      body: { appVersion: '2.6.0' },
    });

    const json = await mac.capture(['checkin', '--json']);
    expect(JSON.parse(json.printed)).toEqual(checkInOutput({ userData: settings }));
  });

  test('state reports the filter state through Heartbeat and remembers it', async () => {
    const before = Date.now();
    const { code, printed } = await mac.capture(['state', 'suspended', '30']);
    expect(code).toBe(0);
    expect(printed).toMatch(/Reported: filter suspended until /);
    const sent = calls.at(-1)!;
    expect(sent.op).toBe('Heartbeat');
    // the app's wire: a synthesized case, the date in seconds since 2001-01-01
    const message = sent.body as {
      currentFilterState_v2: { _0: { suspended: { resuming: number } } };
    };
    const { resuming } = message.currentFilterState_v2._0.suspended;
    const resumingIn = (resuming - toSwiftReferenceSeconds(new Date(before))) * 1000;
    expect(resumingIn).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(resumingIn).toBeLessThanOrEqual(30 * 60_000 + 5000);
    const remembered = (await loadState(mac.stateFile))?.filterState;
    expect(remembered?.case).toBe('suspended');
  });

  test('a revoked token says the connection was removed', async () => {
    isTokenRevoked = true;
    const { code, printed } = await mac.capture(['checkin']);
    expect(code).toBe(2);
    expect(printed).toContain("This computer's connection was removed.");
  });

  test('disconnect goes offline and deletes the state file', async () => {
    const { code } = await mac.capture(['disconnect']);
    expect(code).toBe(0);
    expect(calls.at(-1)).toMatchObject({ op: 'Heartbeat', body: { goingOffline: {} } });
    expect(await loadState(mac.stateFile)).toBeUndefined();
    const again = await mac.capture(['checkin']);
    expect(again.code).toBe(1);
    expect(again.printed).toContain('not connected');
  });

  test('online: filter state first, heartbeats, pushes with changes, goingOffline on stop', async () => {
    await mac.run(['state', 'off']);
    const stop = new AbortController();
    const exited = mac.run(['online', '--heartbeat-seconds', '1'], stop.signal);
    await waitFor('the filter state', () => frames.length > 0);
    expect(frames[0]).toEqual({ currentFilterState_v2: { _0: { off: {} } } });
    // the app's heartbeat is a WebSocket ping
    await waitFor('a heartbeat', () => frames.includes('ping'), 5000);

    settings = userData({ screenshotsEnabled: true, keyloggingEnabled: true });
    channel!.send(JSON.stringify({ userUpdated: {} }));
    await waitFor('the change', () => mac.output.includes('screenshotsEnabled: false -> true'));
    expect(mac.output).toContain('push: {"userUpdated":{}}');
    expect(mac.output).toContain('keyloggingEnabled: false -> true');

    stop.abort();
    expect(await exited).toBe(0);
    expect(frames.filter((frame) => frame !== 'ping').at(-1)).toEqual({ goingOffline: {} });
  });

  test('online: the server closing with 4999 exits 2', async () => {
    const exited = mac.run(['online']);
    await waitFor('the channel', () => channel !== undefined && frames.length > 0);
    // connect reported the filter on, so going online reports it again first
    expect(frames[0]).toEqual({ currentFilterState_v2: { _0: { on: {} } } });
    channel!.close(4999, 'token revoked');
    expect(await exited).toBe(2);
    expect(mac.output).toContain("This computer's connection was removed.");
  });

  test('online: a refused channel (401) exits 2', async () => {
    // The start-up check-in succeeds; the token is revoked by the time of the upgrade.
    isChannelRefused = true;
    expect(await mac.run(['online'])).toBe(2);
    expect(calls.at(-1)?.op).toBe('CheckIn_v2');
    expect(mac.output).toContain("This computer's connection was removed.");
  });
});

test('help, and an unknown command', async () => {
  const mac = new SimulatedMac('http://127.0.0.1:9');
  expect((await mac.capture(['help'])).printed).toContain('connect <code>');
  const unknown = await mac.capture(['reboot']);
  expect(unknown.code).toBe(1);
  expect(unknown.printed).toContain('Unknown command "reboot"');
  mac.cleanUp();
});
