#!/usr/bin/env node
// `npm start` and `npm run demo`: build the dashboard only when what it is built from changed
// (issue 20: the build took ~50 s on every start). The build's inputs — apps/web's sources and
// build config, the contract and domain packages it bundles, and the lockfile — are hashed; the
// hash is stored beside the build (apps/web/dist/.source-hash) and compared on the next start.
// `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const dist = path.join(web, 'dist');
export const HASH_FILE = path.join(dist, '.source-hash');

/** Files and folders (relative to the repository) the dashboard build reads. */
export const BUILD_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/build',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/tsconfig.json',
  'apps/web/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'packages/domain/src',
  'packages/domain/package.json',
  'package-lock.json',
];

const SKIPPED = new Set(['node_modules', 'dist', '.DS_Store']);
const isTestFile = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

function filesUnder(relative) {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [relative];
  return readdirSync(full, { withFileTypes: true })
    .filter((entry) => !SKIPPED.has(entry.name) && !isTestFile(entry.name))
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry) => filesUnder(path.join(relative, entry.name)));
}

/** A hash of every build input's path and bytes. */
export function sourceHash(inputs = BUILD_INPUTS) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesUnder)) {
    hash.update(`${file.split(path.sep).join('/')}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export function isBuildCurrent(hash) {
  if (!existsSync(path.join(dist, 'index.html')) || !existsSync(HASH_FILE)) return false;
  return readFileSync(HASH_FILE, 'utf8').trim() === hash;
}

function main() {
  const isForced = process.argv.includes('--force');
  const hash = sourceHash();
  if (!isForced && isBuildCurrent(hash)) {
    console.log('Dashboard build is up to date (apps/web/dist); skipping the build.');
    return 0;
  }
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) return build.status ?? 1;
  // the hash from before the build: a source saved during the build makes the next start build
  writeFileSync(HASH_FILE, `${hash}\n`);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
