import dnsPacket, { type Answer, type Packet, type Question } from 'dns-packet';

// Issue 33: Keyward DNS's answers on the wire, built with dns-packet (no hand-written parser).
// The rcode travels in the low 4 bits of `flags` (dns-packet only decodes it to a name).

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

/** A blocked name's answers live this long in the device's cache (issue 33: at most 10 s). */
export const BLOCKED_TTL_SECONDS = 10;

/** RFC 8467 §4.1: responses padded to a multiple of 468 octets. */
export const RESPONSE_PADDING_BLOCK = 468;

const OPT_PADDING = 12;
/** the largest DNS message DoT's 2-octet length (and DoH, RFC 8484) can carry */
export const MAX_MESSAGE = 65_535;

export interface ParsedQuery {
  packet: Packet;
  question: Question;
  /** the query carried EDNS(0): the answer carries an OPT record too (RFC 6891) */
  edns: boolean;
  /** DNSSEC OK asked */
  dnssecOk: boolean;
  checkingDisabled: boolean;
}

export type QueryParse =
  | { ok: true; query: ParsedQuery }
  | { ok: false; id: number | undefined; rcode: number };

/** A query we answer: one question, opcode QUERY, not a response. */
export function parseQuery(bytes: Buffer): QueryParse {
  const id = bytes.length >= 2 ? bytes.readUInt16BE(0) : undefined;
  let packet: Packet;
  try {
    packet = dnsPacket.decode(bytes);
  } catch {
    return { ok: false, id, rcode: RCODE.FORMERR };
  }
  const flags = packet.flags ?? 0;
  const opcode = (flags >> 11) & 0xf;
  // dns-packet keeps the QR bit out of `flags`: it is `type`
  if (packet.type === 'response') return { ok: false, id, rcode: RCODE.FORMERR };
  if (opcode !== 0) return { ok: false, id, rcode: RCODE.NOTIMP };
  const questions = packet.questions ?? [];
  const question = questions[0];
  if (questions.length !== 1 || !question) return { ok: false, id, rcode: RCODE.FORMERR };
  const opts = (packet.additionals ?? []).filter((a) => a.type === 'OPT');
  if (opts.length > 1) return { ok: false, id, rcode: RCODE.FORMERR };
  const opt = opts[0] as { flags?: number } | undefined;
  return {
    ok: true,
    query: {
      packet,
      question,
      edns: opt !== undefined,
      dnssecOk: opt !== undefined && ((opt.flags ?? 0) & dnsPacket.DNSSEC_OK) !== 0,
      checkingDisabled: (flags & dnsPacket.CHECKING_DISABLED) !== 0,
    },
  };
}

export interface AnswerSections {
  rcode: number;
  answers?: Answer[];
  authorities?: Answer[];
  /** upstream additionals other than OPT */
  additionals?: Answer[];
  authenticData?: boolean;
}

/**
 * The response to `query` with these sections: the query's id and question, RD copied, RA set,
 * and when the query had EDNS(0) an OPT record padded (RFC 7830) to a multiple of 468 octets.
 */
export function encodeResponse(query: ParsedQuery, sections: AnswerSections): Buffer {
  const requestFlags = query.packet.flags ?? 0;
  let flags =
    (requestFlags & dnsPacket.RECURSION_DESIRED) |
    dnsPacket.RECURSION_AVAILABLE |
    (query.checkingDisabled ? dnsPacket.CHECKING_DISABLED : 0) |
    (sections.authenticData ? dnsPacket.AUTHENTIC_DATA : 0) |
    (sections.rcode & 0xf);
  flags &= 0xffff;
  const packet: Packet = {
    id: query.packet.id ?? 0,
    type: 'response',
    flags,
    questions: [query.question],
    answers: sections.answers ?? [],
    authorities: sections.authorities ?? [],
    additionals: [...(sections.additionals ?? [])],
  };
  if (!query.edns) return dnsPacket.encode(packet);
  const opt = {
    type: 'OPT',
    name: '.',
    udpPayloadSize: 1232,
    flags: query.dnssecOk ? dnsPacket.DNSSEC_OK : 0,
    options: [] as { code: number; length: number }[],
  };
  packet.additionals = [...(packet.additionals ?? []), opt as unknown as Answer];
  // the padding option's own 4 octets count too
  const unpadded = dnsPacket.encodingLength(packet) + 4;
  const length =
    (RESPONSE_PADDING_BLOCK - (unpadded % RESPONSE_PADDING_BLOCK)) % RESPONSE_PADDING_BLOCK;
  // a message over a stream is at most 65,535 octets: a response that big goes unpadded
  if (unpadded + length <= MAX_MESSAGE) opt.options.push({ code: OPT_PADDING, length });
  return dnsPacket.encode(packet);
}

/** An answer to a packet we could not read: its id (when it had one) and the rcode, no question. */
export function encodeBareError(id: number | undefined, rcode: number): Buffer {
  return dnsPacket.encode({
    id: id ?? 0,
    type: 'response',
    flags: rcode & 0xf,
    questions: [],
  });
}

export function errorResponse(query: ParsedQuery, rcode: number): Buffer {
  return encodeResponse(query, { rcode });
}

/** A synthetic SOA for negative answers: cached for min(TTL, MINIMUM) (RFC 2308). */
function blockSoa(zone: string, ttl: number): Answer {
  return {
    type: 'SOA',
    name: zone,
    ttl,
    class: 'IN',
    data: {
      mname: 'keyward.invalid',
      rname: 'blocked.keyward.invalid',
      serial: 1,
      refresh: ttl,
      retry: ttl,
      expire: ttl,
      minimum: ttl,
    },
  } as Answer;
}

/**
 * A blocked name (docs/dns.md): A → 0.0.0.0, AAAA → ::, every other type (HTTPS and SVCB
 * included) NODATA with an SOA; `negative` answers NXDOMAIN instead (iCloud Private Relay's names,
 * which Apple asks networks to answer negatively). TTL 10 s.
 */
export function blockedResponse(query: ParsedQuery, negative = false): Buffer {
  const { question } = query;
  const name = question.name;
  if (negative) {
    return encodeResponse(query, {
      rcode: RCODE.NXDOMAIN,
      authorities: [blockSoa(name, BLOCKED_TTL_SECONDS)],
    });
  }
  const inClass = (question.class ?? 'IN') === 'IN';
  if (inClass && question.type === 'A') {
    return encodeResponse(query, {
      rcode: RCODE.NOERROR,
      answers: [{ type: 'A', name, ttl: BLOCKED_TTL_SECONDS, class: 'IN', data: '0.0.0.0' }],
    });
  }
  if (inClass && question.type === 'AAAA') {
    return encodeResponse(query, {
      rcode: RCODE.NOERROR,
      answers: [{ type: 'AAAA', name, ttl: BLOCKED_TTL_SECONDS, class: 'IN', data: '::' }],
    });
  }
  return encodeResponse(query, {
    rcode: RCODE.NOERROR,
    authorities: [blockSoa(name, BLOCKED_TTL_SECONDS)],
  });
}

export function rcodeOf(packet: Packet): number {
  return (packet.flags ?? 0) & 0xf;
}
