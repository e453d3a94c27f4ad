import type { ParsedArgs } from './args.ts';
import type { Env } from './args.ts';

/** Where a command prints and what it reads; tests pass their own. */
export interface Io {
  stdout: { write(text: string): unknown };
  /** defaults to stdout */
  stderr?: { write(text: string): unknown };
  env?: Env;
  /** aborted on SIGINT/SIGTERM by the real CLI; by tests to stop `online` */
  signal?: AbortSignal;
  /** the clock of this Mac; tests may pin it */
  now?: () => Date;
}

export interface CommandContext {
  parsed: ParsedArgs;
  env: Env;
  stateFile: string;
  print(line: string): void;
  printError(line: string): void;
  signal: AbortSignal | undefined;
  now(): Date;
}

/** Exit codes: 0 done, 1 failed, 2 the parent removed this computer's connection. */
export const EXIT = { ok: 0, failed: 1, connectionRemoved: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
