import dnsPacket from 'dns-packet';
import { describe, expect, test } from 'vitest';
import { encodeResponse, MAX_MESSAGE, parseQuery } from '../src/dns/wire.ts';

// Issue 33: Keyward DNS's answers on the wire (dns/wire.ts), without a server.

function ednsQuery(name: string) {
  const parsed = parseQuery(
    dnsPacket.encode({
      id: 7,
      type: 'query',
      flags: dnsPacket.RECURSION_DESIRED,
      questions: [{ name, type: 'TXT', class: 'IN' }],
      additionals: [
        { type: 'OPT', name: '.', udpPayloadSize: 4096 } as unknown as dnsPacket.Answer,
      ],
    }),
  );
  if (!parsed.ok) throw new Error('the query did not parse');
  return parsed.query;
}

describe('padding', () => {
  test('a response is padded to a multiple of 468 octets', () => {
    const bytes = encodeResponse(ednsQuery('a.test'), { rcode: 0 });
    expect(bytes.length % 468).toBe(0);
  });

  test('a response near 65,535 octets is not padded past what a DoT frame carries', () => {
    const query = ednsQuery('big.test');
    // find a TXT answer that leaves the unpadded response just under the limit, where padding to
    // the next multiple of 468 would pass it
    let found = false;
    for (let size = 65_000; size < 65_520 && !found; size++) {
      const strings: Buffer[] = [];
      for (let left = size; left > 0; left -= 255)
        strings.push(Buffer.alloc(Math.min(255, left), 97));
      const answers = [
        { type: 'TXT', name: 'big.test', ttl: 60, class: 'IN', data: strings },
      ] as dnsPacket.Answer[];
      const unpadded =
        encodeResponse({ ...query, edns: false }, { rcode: 0, answers }).length + 11 + 4;
      if (unpadded <= MAX_MESSAGE && unpadded > 140 * 468) {
        const bytes = encodeResponse(query, { rcode: 0, answers });
        expect(bytes.length).toBeLessThanOrEqual(MAX_MESSAGE);
        expect(dnsPacket.decode(bytes).answers?.length).toBe(1);
        found = true;
      }
    }
    expect(found).toBe(true);
  });
});

test('a query that is a response, has two questions or none is malformed; another opcode NOTIMP', () => {
  const response = dnsPacket.encode({
    id: 1,
    type: 'response',
    questions: [{ name: 'a.test', type: 'A' }],
  });
  expect(parseQuery(response)).toMatchObject({ ok: false, id: 1, rcode: 1 });
  const two = dnsPacket.encode({
    id: 2,
    type: 'query',
    questions: [
      { name: 'a.test', type: 'A' },
      { name: 'b.test', type: 'A' },
    ],
  });
  expect(parseQuery(two)).toMatchObject({ ok: false, rcode: 1 });
  const none = dnsPacket.encode({ id: 3, type: 'query', questions: [] });
  expect(parseQuery(none)).toMatchObject({ ok: false, rcode: 1 });
  const notify = dnsPacket.encode({
    id: 4,
    type: 'query',
    flags: 4 << 11,
    questions: [{ name: 'a.test', type: 'A' }],
  });
  expect(parseQuery(notify)).toMatchObject({ ok: false, rcode: 4 });
});
