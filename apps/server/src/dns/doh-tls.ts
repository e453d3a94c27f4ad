import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { type CertificateFiles, readCertificatePair, watchCertificate } from './certificates.ts';
import type { DnsResolver } from './resolver.ts';

// Issue 33: DoH over HTTPS on DNS_DOH_PORT (HTTP/2, RFC 8484's minimum recommended, and HTTP/1.1),
// with DoT's certificate, for a server that faces devices without a TLS proxy. The same paths and
// answers as /dns-query/<device id> on the main server (http/dns.ts).

export interface DohTlsServer {
  port(): number | undefined;
  close(): Promise<void>;
}

const DNS_MESSAGE = 'application/dns-message';
const MAX_MESSAGE = 65_535;
const PATH = /^\/dns-query\/([^/?#]{1,64})$/;

export async function startDohTlsServer(options: {
  port: number;
  host: string;
  files: CertificateFiles;
  resolver: DnsResolver;
  log: FastifyBaseLogger;
}): Promise<DohTlsServer> {
  const { resolver, files, log } = options;
  const server = http2.createSecureServer({
    ...readCertificatePair(files),
    allowHTTP1: true,
    minVersion: 'TLSv1.2',
  });
  const stopWatching = watchCertificate(files, log, (pair) =>
    server.setSecureContext({ ...pair, minVersion: 'TLSv1.2' }),
  );
  server.setTimeout(30_000);
  // answers leave when written, not behind the device's delayed ACK (Nagle), as on DoT
  server.on('connection', (socket: Socket) => socket.setNoDelay(true));

  server.on('request', (request: http2.Http2ServerRequest, response: http2.Http2ServerResponse) => {
    const fail = (status: number, message: string) => {
      if (response.headersSent) return;
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(message);
    };
    const url = new URL(request.url ?? '/', 'https://dns.invalid');
    const deviceId = PATH.exec(url.pathname)?.[1];
    if (!deviceId) return fail(404, 'Keyward DNS answers at /dns-query/<device id>.');
    const answer = (bytes: Buffer) =>
      resolver.answer(deviceId, bytes, 'doh', request.socket.remoteAddress ?? 'unknown').then(
        (result) => {
          if (response.headersSent) return;
          response.writeHead(200, {
            'content-type': DNS_MESSAGE,
            'cache-control': `private, max-age=${result.ttl}`,
            'content-length': result.bytes.length,
          });
          response.end(result.bytes);
        },
        (error: unknown) => {
          log.error({ err: error }, 'Keyward DNS: a DoH query failed');
          fail(500, 'Keyward DNS could not answer.');
        },
      );
    if (request.method === 'GET') {
      const encoded = url.searchParams.get('dns');
      if (!encoded || !/^[A-Za-z0-9_-]+$/.test(encoded) || encoded.length > 87_384) {
        return fail(400, 'A DNS query goes in ?dns= as base64url (RFC 8484).');
      }
      void answer(Buffer.from(encoded, 'base64url'));
      return;
    }
    if (request.method !== 'POST') return fail(405, 'GET or POST.');
    if ((request.headers['content-type'] ?? '').split(';')[0]?.trim() !== DNS_MESSAGE) {
      return fail(415, `A DNS query is sent as ${DNS_MESSAGE}.`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_MESSAGE) {
        fail(413, 'A DNS message is at most 65535 bytes.');
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (size <= MAX_MESSAGE) void answer(Buffer.concat(chunks));
    });
    request.on('error', () => {});
  });
  server.on('sessionError', () => {});
  server.on('tlsClientError', () => {});

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
      }),
  };
}
