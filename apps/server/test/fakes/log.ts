import type { FastifyBaseLogger } from 'fastify';

// A logger that keeps what was logged, for asserting that failures are logged (and at what level).

export interface LogEntry {
  level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  message: string;
  data: Record<string, unknown>;
}

export function recordingLogger(): { log: FastifyBaseLogger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at =
    (level: LogEntry['level']) =>
    (first?: unknown, second?: unknown): void => {
      if (typeof first === 'string') {
        entries.push({ level, message: first, data: {} });
      } else {
        entries.push({
          level,
          message: typeof second === 'string' ? second : '',
          data: (first ?? {}) as Record<string, unknown>,
        });
      }
    };
  const log = {
    level: 'trace',
    fatal: at('fatal'),
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
    trace: at('trace'),
    silent: () => {},
    child: () => log,
  };
  return { log: log as unknown as FastifyBaseLogger, entries };
}
