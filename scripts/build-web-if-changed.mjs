#!/usr/bin/env node
// `npm start` and `npm run demo`: build the dashboard only when what it is built from changed
// (issue 20: the build took ~50 s on every start), and Keyward for Chrome (issue 22; the server
// serves it as /downloads/keyward-chrome.zip) likewise. The build's inputs — apps/web's sources and
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

/** Keyward for Chrome's build inputs and where its hash is kept (its build takes a second or two). */
const EXTENSION = {
  name: 'Keyward for Chrome',
  workspace: 'apps/browser-filter',
  hashFile: path.join(root, 'apps/browser-filter/dist/.source-hash'),
  output: path.join(root, 'apps/browser-filter/dist/unpacked/manifest.json'),
  inputs: [
    'apps/browser-filter/src',
    'apps/browser-filter/static',
    'apps/browser-filter/scripts',
    'apps/browser-filter/package.json',
    'packages/contract/src',
    'packages/domain/src',
    'package-lock.json',
  ],
};

/** Builds one workspace unless its stored hash says its inputs did not change; the exit status. */
function buildIfChanged({ name, workspace, hashFile, output, inputs }, isForced) {
  const hash = sourceHash(inputs);
  const isCurrent =
    existsSync(output) && existsSync(hashFile) && readFileSync(hashFile, 'utf8').trim() === hash;
  if (!isForced && isCurrent) {
    console.log(`${name} build is up to date (${workspace}/dist); skipping the build.`);
    return 0;
  }
  const build = spawnSync('npm', ['run', 'build', '-w', workspace], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) return build.status ?? 1;
  // the hash from before the build: a source saved during the build makes the next start build
  writeFileSync(hashFile, `${hash}\n`);
  return 0;
}

function main() {
  const isForced = process.argv.includes('--force');
  const dashboard = {
    name: 'Dashboard',
    workspace: 'apps/web',
    hashFile: HASH_FILE,
    output: path.join(dist, 'index.html'),
    inputs: BUILD_INPUTS,
  };
  return buildIfChanged(dashboard, isForced) || buildIfChanged(EXTENSION, isForced);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
