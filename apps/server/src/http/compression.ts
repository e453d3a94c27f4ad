import zlib from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

// API answers (JSON) of 1 KB or more are compressed when the client accepts it, brotli first.
// Built assets are not compressed here: they are sent from their build-time `.br`/`.gz` copies
// (spa.ts), which already carry a Content-Encoding, so this plugin leaves them alone.
// Request bodies are not decompressed: the PairQL router reads them as they come (body limit).

export const COMPRESS_THRESHOLD_BYTES = 1024;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    // Answers up to 64 KB (every read operation of a family) are compressed in one synchronous
    // call and sent with a Content-Length in one write; the stream path cost more per request
    // (npm run bench -- --api).
    syncThreshold: 64 * 1024,
    // brotli quality 1 instead of 4: 3-5x less CPU for 3-8% more bytes on the large reads
    // (CheckIn_v2, GetAdminKeychains at about 50 KB of JSON); built assets use quality 11.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
  });
}
