import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket, { type Packet } from 'dns-packet';

// A DNS resolver on 127.0.0.1 for Keyward DNS's tests, speaking real DNS over UDP: every name
// answers A 192.0.2.<n> (TTL 300), AAAA 2001:db8::1, except
//   slow.test      never answers
//   garbage.test   answers bytes that are no DNS message
//   other.test     answers another question
//   missing.test   NXDOMAIN with an SOA (TTL 900, minimum 30)
// It keeps every query it received (decoded) so a test can see what Keyward forwarded.

export interface FakeUpstream {
  url: string;
  queries: Packet[];
  close(): Promise<void>;
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const socket = dgram.createSocket('udp4');
  const queries: Packet[] = [];
  socket.on('message', (message, rinfo) => {
    let query: Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    queries.push(query);
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    if (name === 'slow.test') return;
    const reply = (bytes: Buffer) => socket.send(bytes, rinfo.port, rinfo.address);
    if (name === 'garbage.test') return reply(Buffer.from('not a dns message at all'));
    const base = { id: query.id ?? 0, type: 'response' as const, questions: [question] };
    if (name === 'other.test') {
      return reply(
        dnsPacket.encode({
          ...base,
          questions: [{ name: 'elsewhere.test', type: 'A', class: 'IN' }],
        }),
      );
    }
    if (name === 'missing.test') {
      return reply(
        dnsPacket.encode({
          ...base,
          flags: 3,
          authorities: [
            {
              type: 'SOA',
              name: 'test',
              ttl: 900,
              data: {
                mname: 'ns.test',
                rname: 'admin.test',
                serial: 1,
                refresh: 1,
                retry: 1,
                expire: 1,
                minimum: 30,
              },
            },
          ],
        }),
      );
    }
    const answers =
      question.type === 'A'
        ? [
            {
              type: 'A' as const,
              name: question.name,
              ttl: 300,
              data: `192.0.2.${queries.length % 250}`,
            },
          ]
        : question.type === 'AAAA'
          ? [{ type: 'AAAA' as const, name: question.name, ttl: 300, data: '2001:db8::1' }]
          : [];
    return reply(dnsPacket.encode({ ...base, flags: dnsPacket.RECURSION_AVAILABLE, answers }));
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    url: `udp://127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
