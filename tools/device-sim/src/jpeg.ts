import { DeviceApiError } from './api.ts';
import jpeg from 'jpeg-js';

// Real JPEG bytes for `screenshot` and `activity`: a generated "desktop" (menu bar, a window in a
// colour that changes with `seed`, a few text-like bars), or the size read from a given file.

export interface Jpeg {
  bytes: Buffer;
  width: number;
  height: number;
}

/** A screenshot-like picture; different seeds give visibly different pictures. */
export function generateScreenshotJpeg(width = 640, height = 400, seed = 0): Jpeg {
  const data = Buffer.alloc(width * height * 4);
  const hue = (seed * 47) % 360;
  const [wr, wg, wb] = hslToRgb(hue, 0.55, 0.6);
  const window = {
    left: Math.round(width * (0.08 + ((seed * 13) % 10) / 100)),
    top: Math.round(height * 0.12),
    right: Math.round(width * 0.85),
    bottom: Math.round(height * 0.88),
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      let r = 40 + Math.round((60 * y) / height);
      let g = 70 + Math.round((50 * x) / width);
      let b = 120;
      if (y < Math.max(8, Math.round(height * 0.04))) {
        r = g = b = 235; // menu bar
      } else if (x >= window.left && x < window.right && y >= window.top && y < window.bottom) {
        const inTitleBar = y < window.top + Math.round(height * 0.06);
        const onTextLine =
          !inTitleBar &&
          (y - window.top) % 18 < 6 &&
          x > window.left + 16 &&
          x <
            window.left + 16 + ((y * 31 + seed * 7) % Math.max(1, window.right - window.left - 32));
        [r, g, b] = inTitleBar ? [wr, wg, wb] : onTextLine ? [90, 90, 90] : [250, 250, 250];
      }
      data[i] = r;
      data[i + 1] = g;
      data[i + 2] = b;
      data[i + 3] = 255;
    }
  }
  const encoded = jpeg.encode({ data, width, height }, 75);
  return { bytes: Buffer.from(encoded.data), width, height };
}

/** Width and height from the frame header of a JPEG; undefined when it is not a JPEG. */
export function jpegSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return undefined;
    const marker = bytes[offset + 1]!;
    const length = bytes.readUInt16BE(offset + 2);
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC)
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [Math.round(f(0) * 255), Math.round(f(8) * 255), Math.round(f(4) * 255)];
}

/** PUTs a JPEG to a signed upload URL, as the apps do; a refusal is a DeviceApiError. */
export async function putJpeg(uploadUrl: string, image: Jpeg, signal?: AbortSignal): Promise<void> {
  let response: Response;
  try {
    response = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { 'Content-Type': 'image/jpeg' },
      body: image.bytes,
      signal,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DeviceApiError(`Could not upload the screenshot: ${reason}`);
  }
  if (!response.ok) {
    const text = await response.text();
    throw new DeviceApiError(
      `The screenshot upload was refused (HTTP ${response.status}): ${text.slice(0, 300)}`,
      undefined,
      response.status,
    );
  }
}
