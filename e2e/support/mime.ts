// A small MIME reader for the messages nodemailer sends: headers, multipart bodies,
// quoted-printable / base64 transfer encodings and RFC 2047 encoded words.

export interface ParsedMail {
  headers: Record<string, string>;
  subject: string;
  to: string[];
  from: string;
  text: string;
  html: string;
  links: string[];
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

export function parseMail(raw: string): ParsedMail {
  const root = splitPart(raw.replace(/\r\n/g, '\n'));
  const leaves = flatten(root);
  const text = leaves
    .filter((p) => mediaType(p) === 'text/plain')
    .map(decodeBody)
    .join('\n');
  const html = leaves
    .filter((p) => mediaType(p) === 'text/html')
    .map(decodeBody)
    .join('\n');
  return {
    headers: root.headers,
    subject: decodeWords(root.headers.subject ?? ''),
    to: addresses(root.headers.to ?? ''),
    from: decodeWords(root.headers.from ?? ''),
    text,
    html,
    links: extractLinks(text, html),
  };
}

function splitPart(raw: string): Part {
  const end = raw.indexOf('\n\n');
  const head = end === -1 ? raw : raw.slice(0, end);
  const body = end === -1 ? '' : raw.slice(end + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function mediaType(part: Part): string {
  return (part.headers['content-type'] ?? 'text/plain').split(';')[0]!.trim().toLowerCase();
}

function flatten(part: Part): Part[] {
  const type = part.headers['content-type'] ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const chunks = part.body.split(`--${boundary}`);
  // chunks[0] is the preamble; the chunk after the closing "--boundary--" starts with "--".
  return chunks
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => flatten(splitPart(chunk.replace(/^\n/, ''))));
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '').toLowerCase();
  const charset = /charset="?([^";]+)"?/i.exec(part.headers['content-type'] ?? '')?.[1] ?? 'utf-8';
  let bytes: Buffer;
  if (encoding === 'base64') bytes = Buffer.from(part.body.replace(/\s+/g, ''), 'base64');
  else if (encoding === 'quoted-printable') bytes = decodeQuotedPrintable(part.body);
  else bytes = Buffer.from(part.body, 'utf8');
  return new TextDecoder(charset).decode(bytes).replace(/\n+$/, '');
}

function decodeQuotedPrintable(body: string): Buffer {
  const joined = body.replace(/=\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      out.push(...Buffer.from(joined[i]!, 'utf8'));
    }
  }
  return Buffer.from(out);
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_, charset: string, kind: string, data: string) => {
        const bytes =
          kind.toUpperCase() === 'B'
            ? Buffer.from(data, 'base64')
            : decodeQuotedPrintable(data.replace(/_/g, ' '));
        return new TextDecoder(charset).decode(bytes);
      },
    );
}

function addresses(header: string): string[] {
  return [...decodeWords(header).matchAll(/[^\s<>,"]+@[^\s<>,"]+/g)].map((m) => m[0].toLowerCase());
}

function extractLinks(text: string, html: string): string[] {
  const found = [
    ...[...text.matchAll(/https?:\/\/[^\s<>"')\]]+/g)].map((m) => m[0]),
    ...[...html.matchAll(/href="(https?:\/\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')),
  ];
  return [...new Set(found.map((link) => link.replace(/[.,;:!?]+$/, '')))];
}
