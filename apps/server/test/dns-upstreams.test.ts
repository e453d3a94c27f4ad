import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import dnsPacket, { type Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generateCertificates } from '../src/dns/certificates.ts';
import type { DnsConfig } from '../src/dns-config.ts';
import { createForwarder, framed } from '../src/dns/upstream.ts';
import { addChild, addKey, addKeychain, assign, website } from './fixtures.ts';
import { createTestServer } from './harness.ts';

// Issue 33: the tls:// and https:// upstreams, against fakes on this machine (a DoT and a DoH
// resolver with a test CA, trusted through DNS_UPSTREAM_CA): an answer comes back; a slow one, a
// garbage one, an HTTP error, an untrusted certificate or a closed port is a failure within the
// deadline, and the next upstream is tried.

let dir: string;
let ca: string;
let dot: tls.Server;
let doh: https.Server;
let dotPort: number;
let dohPort: number;
const seen: string[] = [];
let dotConnections = 0;

function answerFor(query: Packet): Buffer | 'garbage' | 'slow' | 'error' {
  const question = query.questions![0]!;
  const name = question.name.toLowerCase();
  seen.push(name);
  if (name === 'slow.test') return 'slow';
  if (name === 'garbage.test') return 'garbage';
  if (name === 'error.test') return 'error';
  return dnsPacket.encode({
    id: query.id ?? 0,
    type: 'response',
    flags: dnsPacket.RECURSION_AVAILABLE,
    questions: [question],
    answers: [{ type: 'A', name: question.name, ttl: 300, data: '192.0.2.7' }],
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'keyward-dns-upstreams-'));
  await generateCertificates(dir, 'localhost');
  ca = path.join(dir, 'ca.pem');
  const credentials = {
    cert: readFileSync(path.join(dir, 'cert.pem')),
    key: readFileSync(path.join(dir, 'key.pem')),
  };
  dot = tls.createServer(credentials, (socket) => {
    dotConnections++;
    let buffer = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 2 && buffer.length >= buffer.readUInt16BE(0) + 2) {
        const message = buffer.subarray(2, 2 + buffer.readUInt16BE(0));
        buffer = buffer.subarray(2 + message.length);
        const query = dnsPacket.decode(message);
        const name = query.questions?.[0]?.name.toLowerCase();
        // a connection the upstream drops with a query unanswered
        if (name === 'drop.test') {
          seen.push(name);
          socket.destroy();
          return;
        }
        const answer = answerFor(query);
        if (answer === 'slow') continue;
        if (name === 'late.test' && typeof answer !== 'string') {
          setTimeout(() => socket.write(framed(answer)), 150);
          continue;
        }
        if (answer === 'garbage' || answer === 'error') {
          socket.write(framed(Buffer.from('no dns message here')));
          continue;
        }
        socket.write(framed(answer));
      }
    });
  });
  doh = https.createServer(credentials, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = answerFor(dnsPacket.decode(Buffer.concat(chunks)));
      if (answer === 'slow') return;
      if (answer === 'error') return response.writeHead(500).end('down');
      response.writeHead(200, { 'content-type': 'application/dns-message' });
      response.end(answer === 'garbage' ? Buffer.from('<html>not dns</html>') : answer);
    });
  });
  await new Promise<void>((resolve) => dot.listen(0, 'localhost', resolve));
  await new Promise<void>((resolve) => doh.listen(0, 'localhost', resolve));
  dotPort = (dot.address() as AddressInfo).port;
  dohPort = (doh.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => dot.close(resolve));
  doh.closeAllConnections();
  await new Promise((resolve) => doh.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const question = (name: string) => ({
  name,
  type: 'A',
  class: 'IN',
  dnssecOk: false,
  checkingDisabled: false,
});

function forwarder(upstreams: DnsConfig['upstreams'], options: { ca?: boolean } = {}) {
  return createForwarder({
    upstreams,
    upstreamCaFile: options.ca === false ? undefined : ca,
    upstreamTimeoutMs: 600,
    maxTtlSeconds: 60,
    queriesPerMinute: 1_200,
    dotPort: undefined,
    dohPort: undefined,
    dotDomain: 'dns.localhost',
    tlsCertFile: undefined,
    tlsKeyFile: undefined,
    generatedTlsDir: undefined,
  });
}

const tlsUpstream = () => ({ kind: 'tls' as const, host: 'localhost', port: dotPort });
const httpsUpstream = () => ({
  kind: 'https' as const,
  url: `https://localhost:${dohPort}/dns-query`,
});

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

describe.each([
  ['tls://', tlsUpstream],
  ['https://', httpsUpstream],
] as const)('a %s upstream', (_label, upstream) => {
  test('answers, checked against DNS_UPSTREAM_CA', async () => {
    const f = forwarder([upstream()]);
    const packet = await f.resolve(question('khanacademy.org'));
    expect(packet?.answers?.map((a) => (a as { data: string }).data)).toEqual(['192.0.2.7']);
    f.close();
  });

  test('slow or garbage: a failure within the deadline', async () => {
    const f = forwarder([upstream()]);
    for (const name of ['slow.test', 'garbage.test', 'error.test']) {
      const { value, ms } = await timed(f.resolve(question(name)));
      expect(value, name).toBeUndefined();
      expect(ms, name).toBeLessThan(1_500);
    }
    f.close();
  });

  test('a certificate of a CA nobody trusts: no answer', async () => {
    const f = forwarder([upstream()], { ca: false });
    const { value, ms } = await timed(f.resolve(question('khanacademy.org')));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(1_500);
    f.close();
  });
});

describe('a tls:// upstream keeps its connection', () => {
  test('queries are pipelined on one connection and answered in any order', async () => {
    const f = forwarder([tlsUpstream()]);
    const before = dotConnections;
    const names = Array.from({ length: 10 }, (_, i) => `pipelined${i}.test`);
    const order: string[] = [];
    await Promise.all(
      ['late.test', ...names].map((name) =>
        f.resolve(question(name)).then((packet) => {
          expect(packet?.answers?.[0]?.name, name).toBe(name);
          order.push(name);
        }),
      ),
    );
    // the late answer came after the ten sent behind it, on the same connection
    expect(order.at(-1)).toBe('late.test');
    for (const name of ['again1.test', 'again2.test']) {
      expect((await f.resolve(question(name)))?.answers?.length).toBe(1);
    }
    expect(dotConnections - before).toBe(1);
    f.close();
  });

  test('the upstream closes it with a query unanswered: sent once more, then a failure; the next query reconnects', async () => {
    const f = forwarder([tlsUpstream()]);
    expect((await f.resolve(question('kept.test')))?.answers?.length).toBe(1);
    const before = seen.filter((name) => name === 'drop.test').length;
    const { value, ms } = await timed(f.resolve(question('drop.test')));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(1_500);
    // once on the kept connection, once more on a new one (which also never answered)
    expect(seen.filter((name) => name === 'drop.test').length - before).toBe(2);
    expect((await f.resolve(question('after-drop.test')))?.answers?.length).toBe(1);
    f.close();
  });
});

test('a closed port, then one that works: the second answers within the deadline', async () => {
  const closed = { kind: 'tls' as const, host: 'localhost', port: 1 };
  const f = forwarder([closed, httpsUpstream()]);
  const { value, ms } = await timed(f.resolve(question('wikipedia.org')));
  expect(value?.answers?.length).toBe(1);
  expect(ms).toBeLessThan(1_500);
  f.close();
});

test('through the server: a device’s allowed name is answered by a tls:// upstream', async () => {
  const server = await createTestServer({
    env: { DNS_UPSTREAM: `tls://localhost:${dotPort}`, DNS_UPSTREAM_CA: ca },
  });
  try {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const keychainId = await addKeychain(server, parent.adminId);
    await addKey(server, keychainId, website('khanacademy.org'));
    await assign(server, childId, keychainId);
    const created = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'other', name: 'Router' },
      { token: parent.token },
    );
    const { id } = created.body as { id: string };
    const response = await server.app.inject({
      method: 'POST',
      url: `/dns-query/${id}`,
      headers: { 'content-type': 'application/dns-message' },
      payload: dnsPacket.encode({
        id: 0,
        type: 'query',
        questions: [{ name: 'www.khanacademy.org', type: 'A', class: 'IN' }],
      }),
    });
    const packet = dnsPacket.decode(response.rawPayload);
    expect(packet.answers?.map((a) => (a as { data: string }).data)).toEqual(['192.0.2.7']);
    expect(seen).toContain('www.khanacademy.org');
  } finally {
    await server.close();
  }
});
