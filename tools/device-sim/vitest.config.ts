import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The tests run the real server through apps/server's harness: one migrated template database
    // per run, copied by every test server (apps/server/test/template-database.ts).
    globalSetup: ['../../apps/server/test/template-database.ts'],
    // two workers: vitest's default on a 2-core machine is one
    maxWorkers: 2,
  },
});
