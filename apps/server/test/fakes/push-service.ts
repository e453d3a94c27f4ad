import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
} from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake Web Push service (RFC 8030) on 127.0.0.1, and the browsers subscribed to it. Like a real
// one it checks each message's VAPID authorisation (RFC 8292: an ES256 JWT whose signature verifies
// against the `k=` public key, `aud` = the push service's origin, `exp` within 24 hours, `sub` a
// mailto: or https: contact) and refuses it with 401/403 otherwise. It then decrypts the aes128gcm
// body (RFC 8188 / RFC 8291) with the subscribing browser's private key and auth secret, the way
// that browser would, so a test reads the very JSON the service worker would get.

export interface FakeBrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  /** the subscription's id in its endpoint URL */
  subscriptionId: string;
  claims: { aud: string; exp: number; sub: string };
  /** the VAPID public key the message was signed with (`k=`) */
  vapidKey: string;
  ttl: string | undefined;
  topic: string | undefined;
  urgency: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the message the service worker gets
  payload: any;
}

export interface FakePushService {
  origin: string;
  received: ReceivedPush[];
  /** Refused messages, with why. */
  refused: { subscriptionId: string; reason: string }[];
  /** A new browser's subscription (its private keys stay here to decrypt its messages). */
  subscribe(): FakeBrowserSubscription;
  /** Later messages to this subscription get this HTTP status (404 or 410: "gone"). */
  answer(endpoint: string, status: number): void;
  close(): Promise<void>;
}

interface Browser {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  status: number;
}

export async function startFakePushService(): Promise<FakePushService> {
  const browsers = new Map<string, Browser>();
  const received: ReceivedPush[] = [];
  const refused: FakePushService['refused'] = [];
  let origin = '';

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const subscriptionId = (request.url ?? '').replace(/^\/push\//, '');
      const refuse = (status: number, reason: string) => {
        refused.push({ subscriptionId, reason });
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(reason);
      };
      const browser = browsers.get(subscriptionId);
      if (request.method !== 'POST' || !browser) return refuse(404, 'no such subscription');
      if (browser.status !== 201) return refuse(browser.status, 'subscription gone');

      const vapid = parseVapid(String(request.headers.authorization ?? ''), origin);
      if ('error' in vapid) return refuse(403, vapid.error);
      if (request.headers['content-encoding'] !== 'aes128gcm') {
        return refuse(415, 'content-encoding must be aes128gcm');
      }
      let payload: unknown;
      try {
        payload = JSON.parse(decrypt(Buffer.concat(chunks), browser).toString('utf8'));
      } catch (error) {
        return refuse(400, `cannot decrypt: ${(error as Error).message}`);
      }
      received.push({
        subscriptionId,
        claims: vapid.claims,
        vapidKey: vapid.key,
        ttl: header(request.headers.ttl),
        topic: header(request.headers.topic),
        urgency: header(request.headers.urgency),
        payload,
      });
      response.writeHead(201, { location: `${origin}/message/${randomUUID()}` });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    refused,
    subscribe() {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      browsers.set(id, { ecdh, auth, status: 201 });
      return {
        endpoint: `${origin}/push/${id}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: auth.toString('base64url'),
        },
      };
    },
    answer(endpoint, status) {
      const browser = browsers.get(endpoint.split('/').at(-1) ?? '');
      if (browser) browser.status = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** RFC 8292 §3: `vapid t=<JWT>, k=<public key>`; the JWT checked as a push service checks it. */
function parseVapid(
  authorization: string,
  audience: string,
): { claims: ReceivedPush['claims']; key: string } | { error: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match) return { error: 'no vapid authorization' };
  const [, jwt = '', key = ''] = match;
  const [head = '', body = '', signature = ''] = jwt.split('.');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
  if (header.alg !== 'ES256') return { error: `alg ${header.alg}` };
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return { error: 'k is not a P-256 point' };
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const isGenuine = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!isGenuine) return { error: 'bad JWT signature' };
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  if (claims.aud !== audience) return { error: `aud ${claims.aud} is not ${audience}` };
  const now = Math.floor(Date.now() / 1000);
  if (!(claims.exp > now && claims.exp <= now + 24 * 60 * 60)) return { error: 'exp' };
  if (!/^(mailto:|https:)/.test(String(claims.sub))) return { error: `sub ${claims.sub}` };
  return { claims, key };
}

/** RFC 8291 §3.4 key derivation and RFC 8188 aes128gcm, one record. */
function decrypt(body: Buffer, browser: Browser): Buffer {
  const salt = body.subarray(0, 16);
  const keyIdLength = body[20] ?? 0;
  const serverKey = body.subarray(21, 21 + keyIdLength);
  const ciphertext = body.subarray(21 + keyIdLength);
  const shared = browser.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    browser.ecdh.getPublicKey(),
    serverKey,
  ]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: aes128gcm\0', 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, 'Content-Encoding: nonce\0', 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // the last record ends with the delimiter 0x02 and zero padding
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}
