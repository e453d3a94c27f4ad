import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { linksIn, writeToOutbox } from './outbox.ts';

// Text messages (server-behaviour §6.3) through a Twilio-compatible REST API:
// POST {SMS_API_URL}/2010-04-01/Accounts/{sid}/Messages.json with HTTP basic auth (account SID,
// auth token) and the form fields From, To, Body. Without SMS configuration each text is written to
// DATA_DIR/outbox and logged instead.

export interface SmsSender {
  /** Sends one text to an E.164 number; throws SmsError (or a network error) on failure. */
  send(to: string, body: string): Promise<void>;
}

export class SmsError extends Error {
  readonly status: number;
  readonly responseBody: string;

  constructor(status: number, responseBody: string) {
    super(`SMS API answered ${status}: ${responseBody.slice(0, 500)}`);
    this.name = 'SmsError';
    this.status = status;
    this.responseBody = responseBody;
  }
}

const TIMEOUT_MS = 15_000;

export function createSmsSender(
  config: Pick<Config, 'sms' | 'dataDir'>,
  log: FastifyBaseLogger,
): SmsSender {
  const sms = config.sms;
  if (!sms) {
    return {
      async send(to, body) {
        const file = await writeToOutbox(config.dataDir, 'text', `To: ${to}\n\n${body}\n`);
        log.info({ to, file, links: linksIn(body) }, `text to ${to} written to ${file}: ${body}`);
      },
    };
  }

  const url = `${sms.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(sms.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${sms.accountSid}:${sms.authToken}`).toString('base64')}`;
  return {
    async send(to, body) {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ From: sms.from, To: to, Body: body }).toString(),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await response.text();
      if (!response.ok) throw new SmsError(response.status, text);
      log.info({ to }, 'text sent');
    },
  };
}
