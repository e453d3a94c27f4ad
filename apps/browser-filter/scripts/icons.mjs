import { deflateSync } from 'node:zlib';
import { crc32 } from './crc32.mjs';

// The toolbar and store icons, drawn at build time (no image files to download or keep): a white
// key on Keyward's indigo rounded square. Each pixel is 4×4 supersampled for smooth edges.

const INDIGO = [79, 70, 229];
const WHITE = [255, 255, 255];

/** Whether the point (x, y), in a 0…1 square, is inside each shape. */
function isInRoundedSquare(x, y) {
  const r = 0.22;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function isInKey(x, y) {
  // the bow: a ring
  const d = Math.hypot(x - 0.34, y - 0.5);
  if (d <= 0.17 && d >= 0.08) return true;
  // the shaft
  if (x >= 0.48 && x <= 0.82 && y >= 0.46 && y <= 0.54) return true;
  // two teeth
  if (x >= 0.66 && x <= 0.72 && y >= 0.54 && y <= 0.66) return true;
  if (x >= 0.76 && x <= 0.82 && y >= 0.54 && y <= 0.62) return true;
  return false;
}

/** RGBA pixels of the icon at `size` × `size`. */
export function drawIcon(size) {
  const pixels = new Uint8Array(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let square = 0;
      let key = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          if (isInRoundedSquare(x, y)) {
            square++;
            if (isInKey(x, y)) key++;
          }
        }
      }
      const total = samples * samples;
      const keyShare = square === 0 ? 0 : key / square;
      const i = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) {
        pixels[i + c] = Math.round(INDIGO[c] * (1 - keyShare) + WHITE[c] * keyShare);
      }
      pixels[i + 3] = Math.round((255 * square) / total);
    }
  }
  return pixels;
}

function chunk(type, data) {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** An RGBA image as a PNG file. */
export function encodePng(width, height, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    rows[y * (width * 4 + 1)] = 0; // no filter
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(
      rows,
      y * (width * 4 + 1) + 1,
    );
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const ICON_SIZES = [16, 32, 48, 128];
