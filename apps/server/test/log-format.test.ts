import { describe, expect, test } from 'vitest';
import { formatLogLine, loggerOptions, prettyDestination } from '../src/services/log-format.ts';

// issue 20: readable logs in development, JSON in production and tests
const at = new Date(2026, 10, 26, 12, 3, 4).getTime();
const json = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 30, time: at, pid: 1, hostname: 'h', ...fields });

describe('development log lines', () => {
  test.each<[string, Record<string, unknown>, string | undefined]>([
    [
      'an email with its link',
      { msg: 'Email to a@b.c: verify → http://127.0.0.1:8080/verify-signup-email/x' },
      '12:03:04 INFO  Email to a@b.c: verify → http://127.0.0.1:8080/verify-signup-email/x',
    ],
    [
      'the incoming half of a request is left out',
      { reqId: 'r', msg: 'incoming request' },
      undefined,
    ],
    [
      'a completed request is one line',
      {
        reqId: 'r',
        req: { method: 'POST', url: '/pairql/dashboard/Login' },
        res: { statusCode: 200 },
        responseTime: 12.4,
        msg: 'request completed',
      },
      '12:03:04 INFO  POST /pairql/dashboard/Login → 200 (12 ms)',
    ],
    [
      'a warning with its fields',
      { level: 40, msg: 'push failed', childId: 'c1', count: 2 },
      '12:03:04 WARN  push failed  childId=c1 count=2',
    ],
    [
      'an error with its stack',
      { level: 50, msg: 'boom', err: { message: 'bad', stack: 'Error: bad\n    at x' } },
      '12:03:04 ERROR boom\nError: bad\n    at x',
    ],
  ])('%s', (_name, fields, expected) => {
    expect(formatLogLine(json(fields))).toBe(expected);
  });

  test('a line that is not JSON is printed as it is', () => {
    expect(formatLogLine('plain text\n')).toBe('plain text');
  });

  test('the destination prints each line of a chunk; a request is named when it completes', () => {
    let printed = '';
    const destination = prettyDestination({ write: (text: string) => (printed += text) });
    destination.write(
      `${json({ msg: 'one', template: 'verify' })}\n${json({ reqId: 'r1', req: { method: 'GET', url: '/healthz' }, msg: 'incoming request' })}\n`,
    );
    destination.write(
      `${json({ reqId: 'r1', res: { statusCode: 200 }, responseTime: 3, msg: 'request completed' })}\n`,
    );
    expect(printed).toBe('12:03:04 INFO  one\n12:03:04 INFO  GET /healthz → 200 (3 ms)\n');
  });

  test.each<['development' | 'production' | 'staging' | 'test', string, unknown]>([
    ['development', 'info', 'pretty'],
    ['production', 'info', { level: 'info' }],
    ['staging', 'info', { level: 'info' }],
    ['test', 'silent', false],
  ])('%s logs %s as %j', (mode, logLevel, expected) => {
    const options = loggerOptions({ mode, logLevel });
    if (expected === 'pretty') {
      expect(options).toMatchObject({ level: 'info', stream: expect.anything() });
    } else {
      expect(options).toEqual(expected);
    }
  });
});
