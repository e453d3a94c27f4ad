import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Two workers (vitest's default on a 2-core machine is one), and no fresh module graph per test
// file: a file no longer spends seconds importing the whole server again. Every test server is
// still its own app on its own database. Files that replace a module with vi.mock run isolated.
const isolatedFiles = readdirSync(new URL('test', import.meta.url))
  .filter((name) => name.endsWith('.test.ts'))
  .map((name) => `test/${name}`)
  .filter((file) => /\bvi\.(do)?mock\(/.test(readFileSync(new URL(file, import.meta.url), 'utf8')));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // one migrated database per run, copied by every test server (test/template-database.ts)
    globalSetup: ['test/template-database.ts'],
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: isolatedFiles,
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: isolatedFiles } },
    ],
  },
});
