import type { AddressInfo, Socket } from 'node:net';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import { type CertificateFiles, readCertificatePair, watchCertificate } from './certificates.ts';
import type { DnsResolver } from './resolver.ts';

// Issue 33: DNS over TLS (RFC 7858) on DNS_DOT_PORT. The device is the first label of the TLS
// server name, `<device id>.<DNS_DOT_DOMAIN>` (Android's Private DNS takes only a hostname); any
// other name (or none) is no device, so its queries get REFUSED. Queries are length-prefixed
// (RFC 1035 §4.2.2), may be pipelined and are answered as they are ready (RFC 7766 §6.2.1.1).
// The certificate files are watched and re-read when they change (renewals); a broken pair is
// logged and the current one kept.

export interface DotServer {
  port(): number | undefined;
  close(): Promise<void>;
}

/** Queries one connection may have unanswered at once; more wait for the socket to drain. */
const MAX_PENDING = 64;
const IDLE_MS = 30_000;
const HANDSHAKE_MS = 10_000;
const MAX_CONNECTIONS = 20_000;

/** The device id in a DoT server name, or undefined. */
export function deviceIdOfServerName(
  servername: string | false | null | undefined,
  domain: string,
) {
  if (!servername) return undefined;
  const name = servername.toLowerCase();
  const suffix = `.${domain}`;
  if (!name.endsWith(suffix)) return undefined;
  const label = name.slice(0, -suffix.length);
  return label !== '' && !label.includes('.') ? label : undefined;
}

export async function startDotServer(options: {
  port: number;
  host: string;
  domain: string;
  files: CertificateFiles;
  resolver: DnsResolver;
  log: FastifyBaseLogger;
}): Promise<DotServer> {
  const { resolver, log, domain, files } = options;
  const server = tls.createServer({
    ...readCertificatePair(files),
    minVersion: 'TLSv1.2',
    ALPNProtocols: ['dot'],
    handshakeTimeout: HANDSHAKE_MS,
  });
  server.maxConnections = MAX_CONNECTIONS;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    // an answer leaves when it is written, not when the device's last segment is acknowledged
    // (Nagle's algorithm would hold it back behind a delayed ACK)
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  server.on('secureConnection', (socket) => {
    const deviceId = deviceIdOfServerName(socket.servername, domain);
    const client = socket.remoteAddress ?? 'unknown';
    let buffered: Buffer = Buffer.alloc(0);
    let pending = 0;
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    // answers ready in the same turn of the event loop (pipelined queries answered from the
    // cache) leave in one write: one TLS record and one system call instead of one per answer
    // (framed here, into one buffer: no buffer per answer for its length)
    let outgoing: Buffer[] = [];
    let outgoingBytes = 0;
    const flush = () => {
      const answers = outgoing;
      const size = outgoingBytes;
      outgoing = [];
      outgoingBytes = 0;
      if (socket.destroyed || answers.length === 0) return;
      const out = Buffer.allocUnsafe(size);
      let at = 0;
      for (const answer of answers) {
        out.writeUInt16BE(answer.length, at);
        answer.copy(out, at + 2);
        at += answer.length + 2;
      }
      socket.write(out);
    };
    const send = (answer: Buffer) => {
      // a DNS message over a stream is at most 65,535 octets (its length is 2 octets)
      if (answer.length > 0xffff) throw new RangeError('answer too large to frame');
      outgoingBytes += answer.length + 2;
      if (outgoing.push(answer) === 1) process.nextTick(flush);
    };

    const take = () => {
      while (buffered.length >= 2 && pending < MAX_PENDING) {
        const length = buffered.readUInt16BE(0);
        if (buffered.length < length + 2) break;
        const message = buffered.subarray(2, 2 + length);
        buffered = buffered.subarray(2 + length);
        pending++;
        resolver
          .answer(deviceId, message, 'dot', client)
          .then(
            (answer) => {
              if (socket.destroyed) return;
              try {
                send(answer.bytes);
              } catch (error) {
                log.error({ err: error }, 'Keyward DNS: a DoT answer could not be framed');
                socket.destroy();
              }
            },
            (error: unknown) => {
              log.error({ err: error }, 'Keyward DNS: a DoT query failed');
              socket.destroy();
            },
          )
          .finally(() => {
            pending--;
            if (pending < MAX_PENDING && socket.isPaused()) socket.resume();
            take();
          });
      }
      if (pending >= MAX_PENDING) socket.pause();
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      take();
    });
  });
  server.on('tlsClientError', () => {});

  const stopWatching = watchCertificate(files, log, (pair) =>
    server.setSecureContext({ ...pair, minVersion: 'TLSv1.2' }),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: () => (server.address() as AddressInfo | null)?.port,
    close: () =>
      new Promise<void>((resolve) => {
        stopWatching();
        server.close(() => resolve());
        // open connections end with the server
        for (const socket of sockets) socket.destroy();
      }),
  };
}
