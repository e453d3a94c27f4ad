import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import path from 'node:path';
import {
  chunkGroupNamer,
  compileHints,
  iconImportsPerFile,
  keywardChunkRoots,
} from './build/chunks.ts';
import { firstScreenPreload } from './build/first-screen-preload.ts';
import { precompress } from './build/precompress.ts';
import { pwa } from './build/pwa.ts';

const api = 'http://127.0.0.1:8080';
const chunkRoots = keywardChunkRoots(import.meta.dirname);
const chunkGroup = chunkGroupNamer(chunkRoots);

// react-router's package resolves to its development build (checks and warnings that throw and
// catch an Error, about 80 ms of a slowed phone's first load); a build ships its production one.
const reactRouterProduction = path.resolve(
  import.meta.dirname,
  '../../node_modules/react-router/dist/production/index.mjs',
);

export default defineConfig(({ command, isSsrBuild }) => ({
  resolve: {
    alias:
      command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  plugins: [
    // React's JSX and, in development, React's fast refresh
    react(),
    tailwindcss(),
    iconImportsPerFile(),
    // the browser's build only: not the public pages' prerender (scripts/prerender.ts, issue 30)
    ...(isSsrBuild
      ? []
      : [
          // issue 21: the first load's chunks compiled as they download
          compileHints(chunkGroup.firstScreen),
          // the signed-in shell's chunks start with the HTML when there is a session (issue 21)
          firstScreenPreload({
            modules: chunkRoots.app,
            sessionKey: 'admin_token',
            firstReads: { '/': ['IOSDevices', 'DashboardWidgets', 'GetFamilyDevices', 'GetInbox'] },
            readsGlobal: '__keywardFirstReads',
          }),
          // issue 23: manifest, icons, offline page and service worker
          pwa(),
          precompress(),
        ]),
  ],
  server: {
    proxy: {
      '/pairql': api,
      '/macos-app': api,
      '/help': api,
      '/getting-started': api,
      // issue 12: the data export's signed download link
      '/data-export': api,
      // issue 22: Keyward for Chrome's download
      '/downloads': api,
      // issue 23: the service worker's decisions from a notification
      '/push-actions': api,
    },
  },
  build: {
    outDir: 'dist',
    manifest: true,
    rolldownOptions: {
      output: {
        // issue 21: a route in a few files, not dozens (build/chunks.ts)
        codeSplitting: {
          groups: [{ name: chunkGroup, includeDependenciesRecursively: false }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    // two files at a time (vitest's default on a 2-core machine is one); each file keeps its own
    // jsdom and module graph, so no state crosses files
    maxWorkers: 2,
    setupFiles: ['./test/setup.ts'],
    // A page test's first render waits for its lazy chunk, transformed on first import: several
    // seconds on a loaded two-core CI machine (test/setup.ts gives Testing Library's queries 10 s).
    testTimeout: 20_000,
    include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
}));
