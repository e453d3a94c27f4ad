#!/usr/bin/env node
// Runs every test suite of the repository and prints one total: e2e alongside the others, which
// run one after another at a lower CPU priority (--serial: all one after another).
//
//   node scripts/test.mjs                       all suites
//   node scripts/test.mjs --quick               lint, typecheck and the unit suites (the edit loop)
//   node scripts/test.mjs --only lint,domain    some suites
//   node scripts/test.mjs --postgres <url>      only the server suite, on PostgreSQL
//   node scripts/test.mjs --results <file>      also append per-suite counts (JSON lines)
//   node scripts/test.mjs --serial              every suite one after another (e2e last)
//
// The last line is always `N passed, N failed`; the exit code is 1 when anything failed.

import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules/.bin', name);

const suites = [
  { name: 'lint', run: runLint },
  { name: 'typecheck', run: runTypecheck },
  { name: 'contract', run: (ctx) => runVitest(ctx, 'packages/contract') },
  { name: 'domain', run: (ctx) => runVitest(ctx, 'packages/domain') },
  { name: 'server', run: (ctx) => runVitest(ctx, 'apps/server') },
  { name: 'web', run: (ctx) => runVitest(ctx, 'apps/web') },
  { name: 'device-sim', run: (ctx) => runVitest(ctx, 'tools/device-sim') },
  { name: 'browser-filter', run: (ctx) => runVitest(ctx, 'apps/browser-filter') },
  { name: 'e2e', run: runE2e },
];

/** `--quick`: what a one-line change should pass before the long suites run. */
const QUICK = ['lint', 'typecheck', 'contract', 'domain'];

const CHROMIUM_HINT =
  'The end-to-end tests need Chromium. Install it with: sudo apt-get install -y chromium';

const options = parseArgs(process.argv.slice(2));
const reportDir = mkdtempSync(join(tmpdir(), 'keyward-test-'));
const results = [];
const runStarted = Date.now();
let stopMessage = '';
/** The CPU priority of the commands started now (raised while e2e runs alongside). */
let niceness = 0;

try {
  const selected = options.postgres
    ? suites.filter((s) => s.name === 'server')
    : suites.filter((s) => !options.only || options.only.includes(s.name));
  // Issue 35: e2e spends much of its time waiting (a browser, alarms, mail windows), so it runs
  // alongside the other suites, which run one after another at a lower CPU priority (nice 10) and
  // fill the cores it leaves idle; its output is printed whole when it is done. --serial runs
  // everything one after another.
  const alongside =
    !options.serial && selected.length > 1 ? selected.find((s) => s.name === 'e2e') : undefined;
  const background = alongside && runSuite(alongside, { capture: [] });
  if (alongside) {
    console.log('e2e runs alongside the other suites; its output follows them.');
    niceness = 10;
  }
  for (const suite of selected) {
    if (suite === alongside) continue;
    const result = await runSuite(suite);
    if (result.stop) {
      stopMessage = result.note;
      break;
    }
  }
  niceness = 0;
  if (background) {
    banner('e2e (ran alongside the suites above)');
    const result = await background;
    process.stdout.write(Buffer.concat(result.capture).toString('utf8'));
    if (result.stop && !stopMessage) stopMessage = result.note;
  }
} finally {
  rmSync(reportDir, { recursive: true, force: true });
}

printSummary();
const totalFailed = results.reduce((sum, r) => sum + r.failed, 0);
process.exit(totalFailed > 0 ? 1 : 0);

// ---------------------------------------------------------------------------------------------

/** Runs one suite and records its result (in the order suites finish); `capture` collects output. */
async function runSuite(suite, { capture } = {}) {
  const name = options.postgres ? 'server (postgres)' : suite.name;
  if (!capture) banner(`${name}`);
  const started = Date.now();
  const env = options.postgres ? { TEST_DATABASE_URL: options.postgres } : {};
  let result;
  try {
    result = await suite.run({ name: suite.name, env, capture });
  } catch (error) {
    result = failed(`crashed: ${error instanceof Error ? error.message : String(error)}`);
  }
  result = { suite: name, seconds: Math.round((Date.now() - started) / 1000), ...result };
  results.push(result);
  if (options.results) appendFileSync(options.results, `${JSON.stringify(result)}\n`);
  return capture ? { ...result, capture } : result;
}

function parseArgs(args) {
  const parsed = { only: undefined, postgres: undefined, results: undefined, serial: false };
  let quick = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const value = () => {
      const next = args[++i];
      if (next === undefined) usage(`${arg} needs a value`);
      return next;
    };
    if (arg === '--only') parsed.only = value().split(',').filter(Boolean);
    else if (arg.startsWith('--only=')) parsed.only = arg.slice(7).split(',').filter(Boolean);
    else if (arg === '--postgres') parsed.postgres = value();
    else if (arg.startsWith('--postgres=')) parsed.postgres = arg.slice(11);
    else if (arg === '--results') parsed.results = value();
    else if (arg.startsWith('--results=')) parsed.results = arg.slice(10);
    else if (arg === '--quick') quick = true;
    else if (arg === '--serial') parsed.serial = true;
    else if (arg === '--help' || arg === '-h') usage();
    else usage(`unknown option ${arg}`);
  }
  if (quick) {
    if (parsed.only || parsed.postgres) usage('--quick goes without --only and --postgres');
    parsed.only = QUICK;
  }
  const known = suites.map((s) => s.name);
  const unknown = (parsed.only ?? []).filter((name) => !known.includes(name));
  if (unknown.length) usage(`unknown suite ${unknown.join(', ')} (suites: ${known.join(', ')})`);
  return parsed;
}

function usage(problem) {
  if (problem) console.error(`scripts/test.mjs: ${problem}`);
  console.error(
    'usage: node scripts/test.mjs [--quick | --only lint,contract,domain,server,web,device-sim,\n' +
      '                             browser-filter,e2e]\n' +
      '                             [--postgres <database url>] [--results <file>] [--serial]',
  );
  process.exit(problem ? 2 : 0);
}

function banner(title) {
  console.log(`\n━━━ ${title} ${'━'.repeat(Math.max(3, 70 - title.length))}`);
}

function passedCount(count, note = '') {
  return { passed: count, failed: 0, skipped: false, note };
}

function failed(note, extra = {}) {
  return { passed: 0, failed: 1, skipped: false, note, ...extra };
}

function skipped(note) {
  return { passed: 0, failed: 0, skipped: true, note };
}

/** `command args`, behind `nice` while the suites run alongside e2e (never e2e's own commands). */
function niced(command, args, isBackground = false) {
  return niceness > 0 && !isBackground && process.platform === 'linux'
    ? ['nice', ['-n', String(niceness), command, ...args]]
    : [command, args];
}

/** Runs a command with inherited output (or collected into `capture`); resolves with its exit code. */
function run(command, args, { cwd = root, env = {}, capture } = {}) {
  return new Promise((resolve) => {
    const [file, argv] = niced(command, args, capture !== undefined);
    const child = spawn(file, argv, {
      cwd,
      env: { ...process.env, ...env },
      stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (capture) {
      child.stdout.on('data', (chunk) => capture.push(chunk));
      child.stderr.on('data', (chunk) => capture.push(chunk));
    }
    child.on('error', (error) => {
      console.error(`could not start ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Runs a command with its output collected (stdout and stderr together); resolves at exit. */
function runCaptured(command, args, { cwd = root, env = {} } = {}) {
  return new Promise((resolve) => {
    const chunks = [];
    const [file, argv] = niced(command, args);
    const child = spawn(file, argv, {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) =>
      resolve({ code: 127, output: `could not start ${command}: ${error.message}` }),
    );
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

// --- lint -------------------------------------------------------------------------------------

/** `biome ci .` and the import structure (scripts/imports.mjs --check): one test each. */
async function runLint() {
  const colors = process.stdout.isTTY ? [] : ['--colors=off'];
  const problems = [];
  if ((await run(bin('biome'), ['ci', ...colors, '.'])) !== 0)
    problems.push('biome ci reported problems');
  if ((await run(process.execPath, [join(root, 'scripts/imports.mjs'), '--check'])) !== 0) {
    problems.push('an import circle, or imports running back up (scripts/imports.mjs)');
  }
  return {
    passed: 2 - problems.length,
    failed: problems.length,
    skipped: false,
    note: problems.join('; '),
  };
}

/**
 * `tsc --noEmit` in every workspace, two at a time: one test per workspace. Each keeps its
 * incremental state in node_modules/.cache/keyward-tsc, so a second run checks what changed.
 */
async function runTypecheck() {
  const workspaces = [
    'apps/web',
    'apps/server',
    'e2e',
    'tools/device-sim',
    'apps/browser-filter',
    'packages/domain',
    'packages/contract',
  ];
  const cache = join(root, 'node_modules/.cache/keyward-tsc');
  mkdirSync(cache, { recursive: true });
  const failedOnes = [];
  await inPool(workspaces, 2, async (workspace) => {
    const buildInfo = join(cache, `${workspace.replaceAll('/', '-')}.tsbuildinfo`);
    const { code, output } = await runCaptured(bin('tsc'), [
      '-p',
      join(root, workspace),
      '--noEmit',
      '--incremental',
      '--tsBuildInfoFile',
      buildInfo,
    ]);
    console.log(`tsc ${workspace}: ${code === 0 ? 'no type errors' : 'type errors'}`);
    if (output.trim()) console.log(output.trimEnd());
    if (code !== 0) failedOnes.push(workspace);
  });
  const passed = workspaces.length - failedOnes.length;
  return failedOnes.length === 0
    ? passedCount(passed)
    : {
        passed,
        failed: failedOnes.length,
        skipped: false,
        note: `type errors in ${failedOnes.sort().join(', ')}`,
      };
}

/** Runs `task` for every item, at most `limit` at once. */
async function inPool(items, limit, task) {
  const queue = [...items];
  const lane = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

// --- vitest workspaces ------------------------------------------------------------------------

function hasTestFiles(dir) {
  const pattern = /\.(test|spec)\.[cm]?[jt]sx?$/;
  const walk = (path) =>
    readdirSync(path, { withFileTypes: true }).some((entry) => {
      if (entry.isDirectory()) {
        return !['node_modules', 'dist', 'data', '.vite'].includes(entry.name)
          ? walk(join(path, entry.name))
          : false;
      }
      return pattern.test(entry.name);
    });
  return existsSync(dir) && walk(dir);
}

async function runVitest(ctx, workspace) {
  const dir = join(root, workspace);
  if (!hasTestFiles(dir)) return skipped(`no test files in ${workspace} yet`);
  const pkg = readJson(join(dir, 'package.json')) ?? {};
  if (!pkg.scripts?.test) return failed(`${workspace} has test files but no "test" script`);

  const report = join(reportDir, `${ctx.name}-${Date.now()}.json`);
  const code = await run(
    'npm',
    ['run', 'test', '--', '--reporter=default', '--reporter=json', `--outputFile=${report}`],
    { cwd: dir, env: ctx.env },
  );
  const json = readJson(report);
  if (!json) return failed(`vitest exited with code ${code} before writing a report`);

  // A test file that fails to load has no failed assertions; count it as one failure.
  const brokenFiles = (json.testResults ?? []).filter(
    (file) =>
      file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  let failures = (json.numFailedTests ?? 0) + brokenFiles;
  let note = brokenFiles ? `${brokenFiles} test file(s) failed to run` : '';
  if (code !== 0 && failures === 0) {
    failures = 1;
    note = `vitest exited with code ${code}`;
  }
  const failedTests = (json.testResults ?? []).flatMap((file) => {
    const where = relative(root, file.name ?? '');
    const failedOnes = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (file.status === 'failed' && failedOnes.length === 0) {
      return [`${where}: ${firstLine(file.message) || 'did not run'}`];
    }
    return failedOnes.map((a) => `${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  });
  return { passed: json.numPassedTests ?? 0, failed: failures, skipped: false, note, failedTests };
}

/** An error's first line, without terminal colours, short enough for a summary. */
function firstLine(text) {
  const line = stripVTControlCharacters(String(text ?? ''))
    .split('\n')[0]
    .trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

// --- end-to-end -------------------------------------------------------------------------------

function findChromium() {
  return [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].find((path) => path && existsSync(path));
}

function installChromium() {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status === 0;
  console.log("Chromium is missing: installing Debian's chromium (apt-get install -y chromium)");
  if (apt(['install', '-y', 'chromium'])) return;
  console.log('apt-get install failed: running apt-get update and trying again');
  apt(['update']);
  apt(['install', '-y', 'chromium']);
}

async function runE2e(ctx) {
  let chromium = findChromium();
  if (!chromium) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot) return failed(CHROMIUM_HINT, { stop: true });
    installChromium();
    chromium = findChromium();
    if (!chromium) {
      return failed(`Installing Chromium failed. ${CHROMIUM_HINT.replace('sudo ', '')}`, {
        stop: true,
      });
    }
  }

  const say = 'Building the SPA and Keyward for Chrome (npm run build)\n';
  if (ctx.capture) ctx.capture.push(Buffer.from(say));
  else process.stdout.write(say);
  const build = await run('npm', ['run', 'build'], { env: ctx.env, capture: ctx.capture });
  if (build !== 0) return failed(`npm run build failed (exit code ${build})`);

  const report = join(reportDir, 'e2e.json');
  const code = await run(bin('playwright'), ['test', '--reporter=list,json'], {
    cwd: join(root, 'e2e'),
    capture: ctx.capture,
    env: {
      ...ctx.env,
      CHROMIUM_PATH: chromium,
      PLAYWRIGHT_JSON_OUTPUT_FILE: report,
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    },
  });
  const json = readJson(report);
  if (!json?.stats) return failed(`playwright exited with code ${code} before writing a report`);

  const { expected = 0, unexpected = 0, flaky = 0 } = json.stats;
  let failures = unexpected;
  let note = flaky ? `${flaky} flaky` : '';
  if ((json.errors ?? []).length > 0 && failures === 0) {
    failures = 1;
    note = `run error: ${json.errors[0]?.message?.split('\n')[0] ?? 'unknown'}`;
  }
  if (code !== 0 && failures === 0) {
    failures = 1;
    note = `playwright exited with code ${code}`;
  }
  return {
    passed: expected + flaky,
    failed: failures,
    skipped: false,
    note,
    failedTests: failedSpecs(json.suites ?? []),
  };
}

/** `file › title: first line of the error` for each Playwright test that did not pass. */
function failedSpecs(suites) {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? [])
      .filter((spec) => !spec.ok)
      .map((spec) => {
        const error = spec.tests?.flatMap((t) => t.results ?? []).find((r) => r.error)?.error;
        return `${spec.file} › ${spec.title}: ${firstLine(error?.message)}`;
      }),
    ...failedSpecs(suite.suites ?? []),
  ]);
}

// --- summary ----------------------------------------------------------------------------------

function printSummary() {
  banner('summary');
  const width = Math.max(...results.map((r) => r.suite.length), 5);
  for (const r of results) {
    const counts = r.skipped ? 'skipped' : `${r.passed} passed, ${r.failed} failed`;
    const note = r.note ? `  (${r.note})` : '';
    const mark = r.failed ? '✗' : r.skipped ? '-' : '✓';
    console.log(`${mark} ${r.suite.padEnd(width)}  ${counts}  ${formatSeconds(r.seconds)}${note}`);
    for (const name of r.failedTests ?? []) console.log(`    ✗ ${name}`);
  }
  if (stopMessage) console.log(`\n${stopMessage}`);
  const passed = results.reduce((sum, r) => sum + r.passed, 0);
  const failedTotal = results.reduce((sum, r) => sum + r.failed, 0);
  console.log(`all in ${formatSeconds(Math.round((Date.now() - runStarted) / 1000))}`);
  console.log(`${passed} passed, ${failedTotal} failed`);
}

/** 75 → `1m15s`, 9 → `9s`. */
function formatSeconds(seconds) {
  return seconds >= 60
    ? `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`
    : `${seconds}s`;
}
