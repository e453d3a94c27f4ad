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
  });
}
