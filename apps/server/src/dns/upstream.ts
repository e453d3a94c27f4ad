import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { isIP } from 'node:net';
import tls from 'node:tls';
import dnsPacket, { type Packet } from 'dns-packet';
import type { DnsConfig, DnsUpstream } from '../dns-config.ts';

// Issue 33: the resolvers Keyward DNS forwards allowed names to (DNS_UPSTREAM), in order, within
// one deadline for all of them. Whatever an upstream does (slow, down, closed, garbage, an answer
// to another question) ends in `undefined` at the deadline at the latest, never a throw; the
// resolver then answers SERVFAIL. The query sent upstream is built afresh from the question (no
// client subnet or any other option of the device's is forwarded); DO and CD pass through.

export interface UpstreamQuestion {
  name: string;
  type: string;
  class: string;
  dnssecOk: boolean;
  checkingDisabled: boolean;
}

export interface Forwarder {
  /** the upstream's decoded answer, or undefined (down, slow, garbage) */
  resolve(question: UpstreamQuestion): Promise<Packet | undefined>;
  close(): void;
}

const MAX_RESPONSE = 65_535;

function upstreamQuery(question: UpstreamQuestion, id: number): Buffer {
  return dnsPacket.encode({
    id,
    type: 'query',
    flags:
      dnsPacket.RECURSION_DESIRED | (question.checkingDisabled ? dnsPacket.CHECKING_DISABLED : 0),
    questions: [{ name: question.name, type: question.type as 'A', class: question.class as 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: 1232,
        flags: question.dnssecOk ? dnsPacket.DNSSEC_OK : 0,
        options: [],
      } as unknown as dnsPacket.Answer,
    ],
  });
}

/** The upstream's bytes as an answer to this question, or undefined. */
function answerTo(bytes: Buffer, id: number, question: UpstreamQuestion): Packet | undefined {
  let packet: Packet;
  try {
    packet = dnsPacket.decode(bytes);
  } catch {
    return undefined;
  }
  const q = packet.questions?.[0];
  const isAnswer =
    packet.type === 'response' &&
    packet.id === id &&
    packet.questions?.length === 1 &&
    q !== undefined &&
    q.name.toLowerCase() === question.name.toLowerCase() &&
    q.type === question.type &&
    (q.class ?? 'IN') === question.class;
  return isAnswer ? packet : undefined;
}

/** RFC 7858 / RFC 1035 §4.2.2: a message over a stream is preceded by its 2-octet length. */
export function framed(message: Buffer): Buffer {
  const length = Buffer.alloc(2);
  length.writeUInt16BE(message.length);
  return Buffer.concat([length, message]);
}

function randomId() {
  return Math.floor(Math.random() * 0x10000);
}

type Attempt = (question: UpstreamQuestion, signal: AbortSignal) => Promise<Packet | undefined>;

function udpAttempt(upstream: Extract<DnsUpstream, { kind: 'udp' }>): Attempt {
  const family = isIP(upstream.host) === 6 ? 'udp6' : 'udp4';
  return (question, signal) =>
    new Promise((resolve) => {
      const id = randomId();
      const socket = dgram.createSocket(family);
      let settled = false;
      const finish = (packet: Packet | undefined) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        socket.close();
        resolve(packet);
      };
      const onAbort = () => finish(undefined);
      signal.addEventListener('abort', onAbort);
      socket.on('error', () => finish(undefined));
      socket.on('message', (message, rinfo) => {
        if (rinfo.port !== upstream.port) return;
        const packet = answerTo(message, id, question);
        // a truncated UDP answer is not an answer; the next upstream (or SERVFAIL) follows
        if (packet && ((packet.flags ?? 0) & dnsPacket.TRUNCATED_RESPONSE) === 0) finish(packet);
        else if (packet) finish(undefined);
      });
      socket.send(upstreamQuery(question, id), upstream.port, upstream.host, (error) => {
        if (error) finish(undefined);
      });
    });
}

/** queries one kept tls:// connection may have unanswered at once; more are failures */
const MAX_PIPELINED = 256;
/** a kept tls:// connection without a query for this long is closed */
const TLS_IDLE_MS = 20_000;

interface PendingQuery {
  question: UpstreamQuestion;
  bytes: Buffer;
  /** sent again once, on a new connection, when a kept one closed before answering */
  retried: boolean;
  resolve: (packet: Packet | undefined) => void;
}

/**
 * One kept connection to a tls:// upstream (RFC 7858 §3.4), queries pipelined on it and answers
 * matched by id and question in whatever order they come (RFC 7766 §6.2.1.1): a forwarded name
 * costs one round trip, not a TCP and TLS handshake. It opens on the first query, closes after
 * TLS_IDLE_MS without one, and opens again after the upstream closes it or fails; a query a kept
 * connection took but did not answer before closing is sent once more on a new one.
 */
class TlsUpstreamConnection {
  private socket: tls.TLSSocket | undefined;
  private answered = 0;
  private received: Buffer = Buffer.alloc(0);
  private readonly pending = new Map<number, PendingQuery>();
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly upstream: Extract<DnsUpstream, { kind: 'tls' }>,
    private readonly ca: Buffer | undefined,
  ) {}

  query(question: UpstreamQuestion, signal: AbortSignal): Promise<Packet | undefined> {
    if (signal.aborted || this.pending.size >= MAX_PIPELINED) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      let id = randomId();
      while (this.pending.has(id)) id = randomId();
      const onAbort = () => {
        if (this.pending.get(id) === entry) this.pending.delete(id);
        resolve(undefined);
      };
      const entry: PendingQuery = {
        question,
        bytes: framed(upstreamQuery(question, id)),
        retried: false,
        resolve: (packet) => {
          signal.removeEventListener('abort', onAbort);
          resolve(packet);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, entry);
      this.send(entry);
    });
  }

  close() {
    this.socket?.destroy();
    this.fail(this.socket);
  }

  private send(entry: PendingQuery) {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    // a socket still connecting buffers the write until its handshake is done
    (this.socket ?? this.connect()).write(entry.bytes);
  }

  private connect(): tls.TLSSocket {
    const socket = tls.connect({
      host: this.upstream.host,
      port: this.upstream.port,
      ...(isIP(this.upstream.host) === 0 ? { servername: this.upstream.host } : {}),
      ...(this.ca ? { ca: this.ca } : {}),
    });
    this.socket = socket;
    this.answered = 0;
    this.received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => this.onData(socket, chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.fail(socket));
    return socket;
  }

  private onData(socket: tls.TLSSocket, chunk: Buffer) {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    while (this.received.length >= 2) {
      const length = this.received.readUInt16BE(0);
      if (this.received.length < length + 2) break;
      const message = this.received.subarray(2, 2 + length);
      this.received = this.received.subarray(2 + length);
      const id = message.length >= 2 ? message.readUInt16BE(0) : -1;
      const entry = this.pending.get(id);
      // an answer to a query given up on (its deadline passed), or not one of ours: ignored
      if (!entry) continue;
      this.pending.delete(id);
      this.answered++;
      entry.resolve(answerTo(message, id, entry.question));
    }
    if (this.pending.size === 0 && this.socket === socket) {
      this.idleTimer = setTimeout(() => socket.end(), TLS_IDLE_MS);
      this.idleTimer.unref();
    }
  }

  /** The connection is gone: its queries fail, or are sent once more if it had been answering. */
  private fail(socket: tls.TLSSocket | undefined) {
    if (socket === undefined || this.socket !== socket) return;
    this.socket = undefined;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    // a kept connection the upstream closed (servers close idle ones) may have taken a query
    // just before: it goes again on a new connection, once; a connection that never answered is a
    // failing upstream, and its queries fail
    const wasKept = this.answered > 0;
    const left = [...this.pending];
    this.pending.clear();
    for (const [id, entry] of left) {
      if (wasKept && !entry.retried) {
        entry.retried = true;
        this.pending.set(id, entry);
        this.send(entry);
      } else {
        entry.resolve(undefined);
      }
    }
  }
}

function tlsAttempt(
  upstream: Extract<DnsUpstream, { kind: 'tls' }>,
  ca: Buffer | undefined,
  connections: Set<TlsUpstreamConnection>,
): Attempt {
  const connection = new TlsUpstreamConnection(upstream, ca);
  connections.add(connection);
  return (question, signal) => connection.query(question, signal);
}

function httpsAttempt(
  upstream: Extract<DnsUpstream, { kind: 'https' }>,
  ca: Buffer | undefined,
): Attempt {
  return (question, signal) =>
    new Promise((resolve) => {
      // RFC 8484 §4.1: id 0 keeps the answer cacheable by HTTP caches
      const id = 0;
      const body = upstreamQuery(question, id);
      let settled = false;
      const finish = (packet: Packet | undefined) => {
        if (settled) return;
        settled = true;
        request.destroy();
        resolve(packet);
      };
      // node:https rather than fetch, so that DNS_UPSTREAM_CA applies here too
      const request = https.request(
        upstream.url,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/dns-message',
            accept: 'application/dns-message',
            'content-length': body.length,
          },
          signal,
          ...(ca ? { ca } : {}),
        },
        (response) => {
          const length = Number(response.headers['content-length'] ?? 0);
          if (response.statusCode !== 200 || length > MAX_RESPONSE) return finish(undefined);
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > MAX_RESPONSE) return finish(undefined);
            chunks.push(chunk);
          });
          response.on('end', () => finish(answerTo(Buffer.concat(chunks), id, question)));
          response.on('error', () => finish(undefined));
        },
      );
      request.on('error', () => finish(undefined));
      request.end(body);
    });
}

export function createForwarder(config: DnsConfig): Forwarder {
  const ca = config.upstreamCaFile ? readFileSync(config.upstreamCaFile) : undefined;
  const connections = new Set<TlsUpstreamConnection>();
  const attempts = config.upstreams.map((upstream): Attempt => {
    if (upstream.kind === 'udp') return udpAttempt(upstream);
    if (upstream.kind === 'tls') return tlsAttempt(upstream, ca, connections);
    // Node's CA store (and NODE_EXTRA_CA_CERTS), or DNS_UPSTREAM_CA when it is set
    return httpsAttempt(upstream, ca);
  });
  const controllers = new Set<AbortController>();
  return {
    async resolve(question) {
      if (attempts.length === 0) return undefined;
      const controller = new AbortController();
      controllers.add(controller);
      const timer = setTimeout(() => controller.abort(), config.upstreamTimeoutMs);
      try {
        // each upstream gets an equal share of what is left, the last one all of it
        for (let i = 0; i < attempts.length; i++) {
          if (controller.signal.aborted) return undefined;
          const share = new AbortController();
          const left = attempts.length - i;
          const onAbort = () => share.abort();
          controller.signal.addEventListener('abort', onAbort);
          const shareTimer =
            left > 1
              ? setTimeout(() => share.abort(), config.upstreamTimeoutMs / attempts.length)
              : undefined;
          try {
            const packet = await attempts[i]!(question, share.signal);
            if (packet) return packet;
          } finally {
            if (shareTimer) clearTimeout(shareTimer);
            controller.signal.removeEventListener('abort', onAbort);
          }
        }
        return undefined;
      } finally {
        clearTimeout(timer);
        controllers.delete(controller);
      }
    },
    close() {
      for (const controller of controllers) controller.abort();
      for (const connection of connections) connection.close();
    },
  };
}
