import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import dnsPacket from 'dns-packet';

// Issue 33: the resolver Keyward DNS forwards allowed names to in the e2e run (DNS_UPSTREAM), on
// 127.0.0.1 over UDP: every name under keyward-e2e.org (a name this run owns only here) is 127.0.0.2 (where a test serves its sites), any
// other name is NXDOMAIN, so nothing leaves the machine.

export async function startDnsUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, rinfo) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    const ours = name === 'keyward-e2e.org' || name.endsWith('.keyward-e2e.org');
    const reply = dnsPacket.encode({
      id: query.id ?? 0,
      type: 'response',
      flags: dnsPacket.RECURSION_AVAILABLE | (ours ? 0 : 3),
      questions: [question],
      answers:
        ours && question.type === 'A'
          ? [{ type: 'A', name: question.name, ttl: 5, data: '127.0.0.2' }]
          : [],
    });
    socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    url: `udp://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
