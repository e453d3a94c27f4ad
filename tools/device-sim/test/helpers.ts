import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
