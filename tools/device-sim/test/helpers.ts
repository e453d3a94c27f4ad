import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { createTestServer, type TestServer } from '../../../apps/server/test/harness.ts';
import { run } from '../src/cli.ts';
import type { ExitCode } from '../src/io.ts';

/** Runs the CLI as a function and keeps what it printed. */
export class SimulatedMac {
  readonly stateFile: string;
  readonly dir: string;
  output = '';

  constructor(readonly serverUrl: string) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'device-sim-'));
    this.stateFile = path.join(this.dir, 'state.json');
  }

  run(argv: string[], signal?: AbortSignal): Promise<ExitCode> {
    const out = { write: (text: string) => (this.output += text) };
    return run(argv, {
      stdout: out,
      env: { KEYWARD_SERVER: this.serverUrl, DEVICE_SIM_STATE: this.stateFile },
      signal,
    });
  }

  /** Runs a command and returns only what this command printed. */
  async capture(argv: string[]): Promise<{ code: ExitCode; printed: string }> {
    const before = this.output.length;
    const code = await this.run(argv);
    return { code, printed: this.output.slice(before) };
  }

  cleanUp() {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export async function waitFor(
  what: string,
  condition: () => boolean,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface ListeningServer {
  server: TestServer;
  /** http://127.0.0.1:<port> of the listening server */
  serverUrl: string;
  /** X-AdminToken of a verified parent */
  parentToken: string;
}

/**
 * The real server listening on a free port, with one verified parent, for the tests of one file
 * (closed after them). Its fields are filled in by the file's beforeAll.
 */
export function useListeningServer(): ListeningServer {
  const live = {} as ListeningServer;
  beforeAll(async () => {
    live.server = await createTestServer();
    await live.server.app.listen({ host: '127.0.0.1', port: 0 });
    live.serverUrl = `http://127.0.0.1:${(live.server.app.server.address() as AddressInfo).port}`;
    live.parentToken = (await live.server.signUpVerifiedParent()).token;
  });
  afterAll(async () => live.server.close());
  return live;
}

/** A dashboard operation as the parent; throws unless it answers 200. */
export async function dashboardAs(live: ListeningServer, op: string, input?: unknown) {
  const result = await live.server.call(op, input, { token: live.parentToken });
  if (result.status !== 200) throw new Error(`${op} failed: ${JSON.stringify(result.body)}`);
  return result.body;
}
