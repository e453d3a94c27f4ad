import { deflateSync } from 'node:zlib';

// Issue 23: the installable app's icons, drawn at build time (no image files to download or
// commit): a white keyhole on the brand violet. `maskable` fills the whole square and keeps the
// keyhole inside the central 80 % safe zone, so a launcher may crop it to any shape; the other
// icons are a rounded square on a transparent ground.

const VIOLET = [0x7c, 0x3a, 0xed] as const;
const SAMPLES = 3;

export type IconShape = 'rounded' | 'maskable';

/** A PNG (RGBA, 8 bits) of `size`×`size` pixels. */
export function keyholeIconPng(size: number, shape: IconShape): Buffer {
  const stride = size * 4 + 1;
  const raw = Buffer.alloc(stride * size);
  for (let y = 0; y < size; y++) {
    raw[y * stride] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      let ground = 0;
      let hole = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          // the point in a unit square, 0..1
          const u = (x + (sx + 0.5) / SAMPLES) / size;
          const v = (y + (sy + 0.5) / SAMPLES) / size;
          if (shape === 'maskable' || insideRoundedSquare(u, v, 0.04, 0.2)) {
            ground++;
            if (insideKeyhole(u, v, shape === 'maskable' ? 0.62 : 0.72)) hole++;
          }
        }
      }
      const total = SAMPLES * SAMPLES;
      const white = hole / Math.max(ground, 1);
      const offset = y * stride + 1 + x * 4;
      for (let c = 0; c < 3; c++) {
        raw[offset + c] = Math.round((VIOLET[c] ?? 0) * (1 - white) + 255 * white);
      }
      raw[offset + 3] = Math.round((255 * ground) / total);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function insideRoundedSquare(u: number, v: number, margin: number, radius: number): boolean {
  const lo = margin + radius;
  const hi = 1 - margin - radius;
  const dx = u < lo ? lo - u : u > hi ? u - hi : 0;
  const dy = v < lo ? lo - v : v > hi ? v - hi : 0;
  if (u < margin || u > 1 - margin || v < margin || v > 1 - margin) return false;
  return dx * dx + dy * dy <= radius * radius;
}

/** A keyhole centred in the square, `scale` of its height: a round head over a flared foot. */
function insideKeyhole(u: number, v: number, scale: number): boolean {
  const x = (u - 0.5) / scale;
  const y = (v - 0.5) / scale;
  const head = { y: -0.16, r: 0.2 };
  if (x * x + (y - head.y) ** 2 <= head.r * head.r) return true;
  // the foot: from the head's centre down to y = 0.36, 0.16 wide at the top, 0.34 at the bottom
  if (y < head.y || y > 0.36) return false;
  const t = (y - head.y) / (0.36 - head.y);
  const halfWidth = 0.08 + t * 0.09;
  return Math.abs(x) <= halfWidth;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
