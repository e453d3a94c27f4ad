import dnsPacket, { type Packet } from 'dns-packet';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createDnsResolver, type DnsResolver } from '../src/dns/resolver.ts';
import type { UpstreamQuestion } from '../src/dns/upstream.ts';
import { addChild, addKey, addKeychain, assign, website } from './fixtures.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 33: 8,000 random and mutated packets through the resolver in-process (parse, device,
// budget, decision, cache, answer), with an upstream that answers odd records, nothing, or
// another name. With the 1,000 over DoH and the 1,000 over DoT in dns.test.ts, 10,000 in all.
// Every packet gets a DNS message back (or FORMERR for bytes that are no query), never a throw.

let server: TestServer;
let resolver: DnsResolver;
const devices: string[] = [];

let state = 20_261_201;
const random = () => {
  state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
  return state;
};
const pick = <T>(items: readonly T[]): T => items[random() % items.length]!;

const LABELS = [
  'www',
  'a',
  'wikipedia',
  'org',
  'khanacademy',
  'xn--bcher-kva',
  'game',
  '_dns',
  '*',
];
const TYPES = [
  'A',
  'AAAA',
  'HTTPS',
  'SVCB',
  'TXT',
  'MX',
  'CNAME',
  'SOA',
  'NS',
  'PTR',
  'ANY',
  'SRV',
];

function randomName(): string {
  switch (random() % 6) {
    case 0:
      return 'wikipedia.org';
    case 1:
      return `${'x'.repeat(1 + (random() % 63))}.wikipedia.org`;
    case 2:
      return Array.from({ length: 1 + (random() % 12) }, () => pick(LABELS)).join('.');
    case 3:
      return String.fromCharCode(...Array.from({ length: random() % 40 }, () => random() % 0x3000));
    case 4:
      return 'mask.icloud.com';
    default:
      return `${random().toString(36)}.khanacademy.org.`;
  }
}

function randomQuery(): Buffer {
  const questions = Array.from({ length: random() % 10 === 0 ? random() % 3 : 1 }, () => ({
    name: randomName(),
    type: pick(TYPES) as 'A',
    class: (random() % 10 === 0 ? 'CH' : 'IN') as 'IN',
  }));
  const withOpt = random() % 2 === 0;
  const packet = {
    id: random() & 0xffff,
    type: (random() % 20 === 0 ? 'response' : 'query') as 'query',
    flags: random() & 0xffff & ~0x7800, // any flags, opcode 0 mostly
    questions,
    ...(withOpt
      ? {
          additionals: [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: random() & 0xffff,
              flags: random() % 2 === 0 ? dnsPacket.DNSSEC_OK : 0,
              options: pick([
                [],
                [{ code: 'CLIENT_SUBNET', family: 1, sourcePrefixLength: 24, ip: '198.51.100.0' }],
                [{ code: 'PADDING', length: random() % 300 }],
                [{ code: 'COOKIE', data: Buffer.alloc(8, 1) }],
              ]),
            } as unknown as dnsPacket.Answer,
          ],
        }
      : {}),
  };
  let bytes: Buffer;
  try {
    bytes = dnsPacket.encode(packet);
  } catch {
    bytes = Buffer.from(Array.from({ length: random() % 64 }, () => random() & 0xff));
  }
  // a third are mutated byte by byte, some truncated, some extended
  if (random() % 3 === 0) {
    bytes = Buffer.from(bytes.map((byte) => (random() % 10 === 0 ? random() & 0xff : byte)));
  }
  if (random() % 10 === 0) bytes = bytes.subarray(0, random() % (bytes.length + 1));
  if (random() % 20 === 0) bytes = Buffer.concat([bytes, Buffer.alloc(random() % 600, 0xff)]);
  return bytes;
}

/** an upstream that answers odd things: records of every kind, nothing, or another question */
function oddAnswer(question: UpstreamQuestion): Packet | undefined {
  const base = {
    id: 0,
    type: 'response' as const,
    flags: dnsPacket.RECURSION_AVAILABLE,
    questions: [{ name: question.name, type: question.type as 'A', class: 'IN' as const }],
  };
  switch (random() % 6) {
    case 0:
      return undefined;
    case 1:
      return {
        ...base,
        answers: [{ type: 'A', name: question.name, ttl: random(), data: '192.0.2.1' }],
      };
    case 2:
      return {
        ...base,
        answers: [
          { type: 'CNAME', name: question.name, ttl: 5, data: 'cdn.example' },
          { type: 'AAAA', name: 'cdn.example', ttl: 0, data: '2001:db8::1' },
        ],
      };
    case 3:
      return {
        ...base,
        answers: [
          { type: 'TXT', name: question.name, ttl: 60, data: ['x'.repeat(random() % 255)] },
        ],
      };
    case 4:
      return {
        ...base,
        flags: base.flags | 3,
        authorities: [
          {
            type: 'SOA',
            name: 'org',
            ttl: 900,
            data: {
              mname: 'a.org',
              rname: 'b.org',
              serial: 1,
              refresh: 1,
              retry: 1,
              expire: 1,
              minimum: random() % 100,
            },
          },
        ],
      };
    default:
      return {
        ...base,
        answers: Array.from({ length: random() % 400 }, (_, i) => ({
          type: 'A' as const,
          name: question.name,
          ttl: 30,
          data: `192.0.2.${i % 256}`,
        })),
      };
  }
}

beforeAll(async () => {
  server = await createTestServer();
  const parent = await server.signUpVerifiedParent();
  const childId = await addChild(server, parent.adminId);
  const keychainId = await addKeychain(server, parent.adminId);
  await addKey(server, keychainId, website('wikipedia.org'));
  await addKey(server, keychainId, {
    type: 'domainRegex',
    pattern: '^[a-z0-9]+\\.khanacademy\\.org$',
    scope: { type: 'unrestricted' },
  });
  await assign(server, childId, keychainId);
  for (const name of ['Phone', 'Tablet', 'Laptop', 'Router']) {
    const created = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'other', name },
      { token: parent.token },
    );
    devices.push((created.body as { id: string }).id);
  }
  resolver = createDnsResolver({
    config: { ...server.config.dns, queriesPerMinute: 1_000_000 },
    db: server.db,
    clock: server.clock,
    push: server.app.push,
    log: server.app.log,
    serverHosts: ['keyward.example'],
    forwarder: { resolve: async (question) => oddAnswer(question), close() {} },
  });
});
afterAll(async () => {
  resolver.close();
  await server.close();
});

describe('the resolver under 8,000 random and mutated packets', () => {
  test('each gets a DNS message back; nothing throws', async () => {
    const outcomes = new Map<string, number>();
    const ids = [...devices, 'not-a-uuid', '00000000-0000-4000-8000-000000000000', undefined];
    for (let i = 0; i < 8_000; i++) {
      const bytes = randomQuery();
      const answer = await resolver.answer(pick(ids), bytes, i % 2 === 0 ? 'doh' : 'dot');
      outcomes.set(answer.outcome, (outcomes.get(answer.outcome) ?? 0) + 1);
      expect(answer.bytes.length).toBeGreaterThanOrEqual(12);
      expect(answer.bytes.length).toBeLessThanOrEqual(65_535);
      // a DNS response header: QR set
      expect(answer.bytes[2]! & 0x80).toBe(0x80);
      if (answer.outcome !== 'formerr' && answer.outcome !== 'notimp') {
        expect(() => dnsPacket.decode(answer.bytes)).not.toThrow();
      }
    }
    // the run reached every branch that matters, not only FORMERR
    for (const outcome of ['formerr', 'refusedUnknown', 'blocked', 'allowed']) {
      expect(outcomes.get(outcome) ?? 0, outcome).toBeGreaterThan(50);
    }
    // an upstream answer that fails (none, or too big to write back) is a SERVFAIL
    expect(outcomes.get('servfail') ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
