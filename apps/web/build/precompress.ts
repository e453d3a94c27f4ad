import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

// Build-time compression: after `vite build`, every text file of the output (the hashed assets and
// index.html) gets a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy next to it. The
// server sends the copy the browser accepts (apps/server/src/http/spa.ts), so nothing is
// compressed per request and the best (slowest) settings cost nothing at run time.

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest|xml|ico)$/;

/** Writes `<file>.br` and `<file>.gz` for every compressible file under `dir`; returns the count. */
export function precompressDirectory(dir: string): number {
  let count = 0;
  for (const entry of readdirSync(dir)) {
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) {
      count += precompressDirectory(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry)) continue;
    const content = readFileSync(file);
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
    );
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    count++;
  }
  return count;
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'keyward-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const count = precompressDirectory(outDir);
      config.logger.info(`precompressed ${count} files (.br and .gz)`);
    },
  };
}
