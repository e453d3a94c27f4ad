import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The child's Mac of the e2e tests: tools/device-sim run as a real subprocess against the e2e
// server, with its own state file in a temporary folder. Node runs the CLI with the tsx loader
// directly (no npm, no tsx wrapper process), so SIGINT reaches the simulator itself.

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = join(root, 'tools/device-sim/src/cli.ts');

export interface SimResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Exit codes of tools/device-sim (src/io.ts). */
export const SIM_EXIT = { ok: 0, failed: 1, connectionRemoved: 2 } as const;

export class SimulatedMac {
  readonly stateFile: string;
  private readonly dir: string;
  private readonly running = new Set<ChildProcess>();

  constructor(readonly serverUrl: string) {
    this.dir = mkdtempSync(join(tmpdir(), 'keyward-device-sim-'));
    this.stateFile = join(this.dir, 'state.json');
  }

  private spawnSim(args: readonly string[]): ChildProcess {
    const { DEVICE_SIM_STATE: _state, KEYWARD_SERVER: _server, ...env } = process.env;
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, ...args, '--server', this.serverUrl, '--state', this.stateFile],
      { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.running.add(child);
    child.once('exit', () => this.running.delete(child));
    return child;
  }

  /** Runs one command to its end. */
  run(args: readonly string[], timeoutMs = 30_000): Promise<SimResult> {
    const child = this.spawnSim(args);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(
          new Error(
            `device-sim ${args.join(' ')} did not finish within ${timeoutMs / 1000} s\n` +
              `stdout:\n${stdout}\nstderr:\n${stderr}`,
          ),
        );
      }, timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
  }

  /** Runs a command that must succeed; returns its stdout. */
  async ok(args: readonly string[]): Promise<string> {
    const result = await this.run(args);
    if (result.code !== SIM_EXIT.ok) {
      throw new Error(
        `device-sim ${args.join(' ')} exited with ${result.code}\n` +
          `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`,
      );
    }
    return result.stdout;
  }

  connect(code: string): Promise<string> {
    return this.ok(['connect', code]);
  }

  /** `keys`: one line per key that applies on this Mac now. */
  async keys(): Promise<string[]> {
    const stdout = await this.ok(['keys']);
    return stdout.split('\n').filter((line) => line.trim() !== '');
  }

  /** Starts `online` (holds the push channel); stop it with `stop()`. */
  online(): OnlineMac {
    return new OnlineMac(this.spawnSim(['online']));
  }

  /** Kills whatever is still running and removes the state folder. */
  dispose(): void {
    for (const child of this.running) child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A running `device-sim online`, read line by line as the lines arrive. */
export class OnlineMac {
  /** Every line so far, stdout and stderr, in arrival order. */
  readonly lines: string[] = [];
  private readonly exited: Promise<number | null>;
  private listeners: (() => void)[] = [];

  constructor(private readonly child: ChildProcess) {
    const reader = (prefix: string) => {
      let partial = '';
      return (chunk: Buffer) => {
        partial += chunk.toString('utf8');
        const complete = partial.split('\n');
        partial = complete.pop() ?? '';
        for (const line of complete) this.lines.push(`${prefix}${line}`);
        for (const listener of this.listeners) listener();
      };
    };
    child.stdout?.on('data', reader(''));
    child.stderr?.on('data', reader('stderr: '));
    this.exited = new Promise((resolve) => {
      child.once('close', (code) => {
        resolve(code);
        for (const listener of this.listeners) listener();
      });
    });
  }

  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** Waits for a line matching `pattern` (already printed or still to come). */
  waitForLine(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.lines.find((line) => pattern.test(line));
        if (found !== undefined) {
          done();
          resolve(found);
        } else if (this.hasExited) {
          done();
          reject(new Error(`device-sim online exited before printing ${pattern}:\n${this.log()}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`device-sim online printed no line matching ${pattern}:\n${this.log()}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.listeners = this.listeners.filter((listener) => listener !== check);
      };
      this.listeners.push(check);
      check();
    });
  }

  /** SIGINT, like Ctrl-C: the simulator sends goingOffline and exits. Resolves with its exit code. */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (!this.hasExited) this.child.kill('SIGINT');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  log(): string {
    return this.lines.map((line) => `  | ${line}`).join('\n');
  }
}
