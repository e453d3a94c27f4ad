import type { Config } from '../config.ts';

// Logs for people in development (issue 20): one short line per event, `12:03:04 INFO  …`, instead
// of pino's JSON, so the `Email to …` lines with their links stand out. One line per request (when
// it completed), not two. Production, staging and tests keep JSON (or silence).

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

interface LogLine {
  level?: number;
  time?: number;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string; stack?: string };
  [key: string]: unknown;
}

const SHOWN_ELSEWHERE = new Set([
  'level',
  'time',
  'pid',
  'hostname',
  'msg',
  'reqId',
  'req',
  'res',
  'responseTime',
  'err',
]);

function clock(time: number | undefined): string {
  const at = time === undefined ? new Date() : new Date(time);
  return at.toTimeString().slice(0, 8);
}

/** Requests seen coming in and not completed yet: reqId → 'POST /pairql/…'. */
type OpenRequests = Map<string, string>;
const MAX_OPEN_REQUESTS = 1000;

/**
 * One pino JSON line as a person reads it; undefined for a line not worth a line. Fields beside
 * the message are shown for warnings and errors only.
 */
export function formatLogLine(json: string, open: OpenRequests = new Map()): string | undefined {
  let line: LogLine;
  try {
    line = JSON.parse(json) as LogLine;
  } catch {
    return json.trimEnd();
  }
  const reqId = typeof line.reqId === 'string' ? line.reqId : undefined;
  if (line.msg === 'incoming request') {
    if (reqId && open.size < MAX_OPEN_REQUESTS) {
      open.set(reqId, `${line.req?.method ?? ''} ${line.req?.url ?? ''}`);
    }
    return undefined;
  }
  const level = line.level ?? 30;
  let text = line.msg ?? '';
  if (line.msg === 'request completed' && line.res) {
    const request = line.req
      ? `${line.req.method ?? ''} ${line.req.url ?? ''}`
      : ((reqId && open.get(reqId)) ?? 'request');
    if (reqId) open.delete(reqId);
    const took = line.responseTime === undefined ? '' : ` (${Math.round(line.responseTime)} ms)`;
    text = `${request} → ${line.res.statusCode ?? ''}${took}`;
  }
  const extra = Object.entries(line)
    .filter(([key]) => !SHOWN_ELSEWHERE.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (level >= 40 && extra.length > 0) text += `  ${extra.join(' ')}`;
  if (line.err?.stack) text += `\n${line.err.stack}`;
  else if (line.err?.message) text += `  error=${line.err.message}`;
  return `${clock(line.time)} ${LEVELS[level] ?? 'INFO '} ${text}`;
}

/** A pino destination that prints formatted lines to `out`. */
export function prettyDestination(out: { write(text: string): unknown } = process.stdout) {
  const open: OpenRequests = new Map();
  return {
    write(chunk: string) {
      for (const json of chunk.split('\n')) {
        if (json.trim() === '') continue;
        const text = formatLogLine(json, open);
        if (text !== undefined) out.write(`${text}\n`);
      }
    },
  };
}

/** Fastify's `logger` option: human-readable lines in development, JSON elsewhere. */
export function loggerOptions(config: Pick<Config, 'logLevel' | 'mode'>) {
  if (config.logLevel === 'silent') return false;
  if (config.mode === 'development') {
    return { level: config.logLevel, stream: prettyDestination() };
  }
  return { level: config.logLevel };
}
