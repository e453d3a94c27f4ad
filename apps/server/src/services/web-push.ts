import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import type { Config } from '../config.ts';

// Issue 23: Web Push (RFC 8030) to the parents' browsers, the "This device" notification method.
// The maintained `web-push` library builds each request: the VAPID JWT signed with the server's
// P-256 key (RFC 8292) and the payload encrypted for the subscription (aes128gcm, RFC 8291). This
// file sends it with fetch and a timeout, so a slow push service cannot hold a delivery. A 404 or
// 410 means the browser's subscription is gone for good: the caller removes the method.

export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushMessageOptions {
  /** RFC 8030 Topic: a newer message with the same topic replaces one not yet delivered. */
  topic?: string;
  /** seconds the push service keeps an undelivered message */
  ttlSeconds: number;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

export type PushOutcome = 'sent' | 'gone';

export interface WebPushSender {
  send(
    subscription: BrowserSubscription,
    payload: string,
    options: PushMessageOptions,
  ): Promise<PushOutcome>;
}

const TIMEOUT_MS = 15_000;

export class PushServiceError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`push service answered ${status}: ${body.slice(0, 200)}`);
  }
}

/** A Topic header value: at most 32 characters of the base64url alphabet (RFC 8030 §5.4). */
export function pushTopic(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

/**
 * Plain http endpoints are accepted outside production only (the tests' fake push service on
 * 127.0.0.1); in production a subscription must name an https push service.
 */
export function isAcceptedEndpoint(endpoint: string, mode: Config['mode']): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && mode !== 'production';
}

export function createWebPushSender(config: Config, log: FastifyBaseLogger): WebPushSender {
  const { vapid } = config;
  return {
    async send(subscription, payload, options) {
      const details = webpush.generateRequestDetails(subscription, payload, {
        vapidDetails: {
          subject: vapid.subject,
          publicKey: vapid.publicKey,
          privateKey: vapid.privateKey,
        },
        TTL: options.ttlSeconds,
        contentEncoding: 'aes128gcm',
        ...(options.urgency ? { urgency: options.urgency } : {}),
        ...(options.topic ? { topic: options.topic } : {}),
      });
      const response = await fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body ?? undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (response.status === 404 || response.status === 410) {
        log.info(
          { status: response.status, host: new URL(subscription.endpoint).host },
          'web push: the subscription is gone',
        );
        return 'gone';
      }
      if (!response.ok) {
        throw new PushServiceError(response.status, await response.text().catch(() => ''));
      }
      return 'sent';
    },
  };
}
