#!/usr/bin/env node
// The import structure of apps/server/src and apps/web/src, counted from the source itself.
//
//   node scripts/imports.mjs            prints circles, floors and the imports that run back up
//   node scripts/imports.mjs --check    the same; exit code 1 on any circle, or on more imports
//                                       running back up than a workspace allows (the lint suite)
//
// How it counts: every `.ts`/`.tsx` file under the folder is a node; every relative import of
// another file there is an edge: `import`, `import type`, `export … from`, `import('…')` in code
// and in types alike (TypeScript's own scanner, `ts.preProcessFile`). Package imports and files
// outside the folder are ignored.
// - A circle is a strongly connected component of that file graph with more than one file (or a
//   file importing itself): no order exists in which its files could be read one by one.
// - Each file stands on a floor given by the first pattern in FLOORS that matches its path; an
//   import from a lower floor into a higher one "runs back up". Imports within a floor are free
//   (as long as they make no circle).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Floors from the ground up: [name, path patterns]. Paths are relative to the src folder. */
export const WORKSPACES = [
  {
    name: 'apps/server',
    src: 'apps/server/src',
    maxUpward: 3,
    floors: [
      [
        'ground: config, db',
        // Keyward DNS's settings are parsed with the rest of the configuration
        [/^config\.ts$/, /^db\//, /^collections\.ts$/, /^dns\/dns-config\.ts$/],
      ],
      ['services', [/^services\//]],
      [
        'features and the request kernel',
        [
          /^(accounts|activity|audit|billing|children|devices|dns|exports|ios|jobs|keychains)\//,
          /^(notifications|requests)\//,
          /^announcements\.ts$/,
          // the parent-ownership check the features share
          /^operations\/ownership\.ts$/,
          // the request context, errors, roles and read cache every feature is written against
          /^pairql\/(?!router\.ts$)/,
        ],
      ],
      ['operations, router, http', [/^operations\//, /^pairql\/router\.ts$/, /^http\//]],
      ['entry points', [/^[^/]+\.ts$/]],
    ],
  },
  {
    name: 'apps/web',
    src: 'apps/web/src',
    maxUpward: 0,
    floors: [
      ['lib', [/^lib\//, /^vite-env\.d\.ts$/]],
      ['components', [/^components\//]],
      ['features', [/^features\//]],
      ['app shell', [/^app\//]],
      [
        'entry points (browser, server render)',
        [/^main\.tsx$/, /^entry-server\.tsx$/, /^prerender\.tsx$/],
      ],
    ],
  },
];

const SOURCE = /\.(ts|tsx|mts)$/;

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function resolveImport(from, specifier, known) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  return candidates.find((candidate) => known.has(candidate) && isFile(candidate));
}

/** The file graph of one folder: Map<relative path, Set<relative path>>. */
export function importGraph(srcDir) {
  const files = listFiles(srcDir);
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      const target = resolveImport(file, fileName, known);
      if (target) targets.add(relative(srcDir, target));
    }
    graph.set(relative(srcDir, file), targets);
  }
  return graph;
}

/** Strongly connected components with a circle in them (Tarjan), each sorted, largest first. */
export function circles(graph) {
  let index = 0;
  const indices = new Map();
  const lowlinks = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    indices.set(node, index);
    lowlinks.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
      } else if (onStack.has(next)) {
        lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
      }
    }
    if (lowlinks.get(node) === indices.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) visit(node);
  return found.sort((a, b) => b.length - a.length || a[0].localeCompare(b[0]));
}

export function floorOf(floors, file) {
  const floor = floors.findIndex(([, patterns]) => patterns.some((p) => p.test(file)));
  return floor;
}

/** Every import from a lower floor into a higher one, plus files no floor pattern matches. */
export function upwardImports(graph, floors) {
  const upward = [];
  const unplaced = [];
  for (const [file, targets] of graph) {
    const from = floorOf(floors, file);
    if (from < 0) {
      unplaced.push(file);
      continue;
    }
    for (const target of targets) {
      const to = floorOf(floors, target);
      if (to > from) upward.push({ file, target, from: floors[from][0], to: floors[to][0] });
    }
  }
  return { upward: upward.sort((a, b) => a.file.localeCompare(b.file)), unplaced };
}

export function analyse(workspace) {
  const graph = importGraph(join(root, workspace.src));
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0);
  const { upward, unplaced } = upwardImports(graph, workspace.floors);
  return { files: graph.size, edges, circles: circles(graph), upward, unplaced };
}

function main(args) {
  const check = args.includes('--check');
  let problems = 0;
  for (const workspace of WORKSPACES) {
    const result = analyse(workspace);
    const verdict = [];
    if (result.circles.length) verdict.push(`${result.circles.length} import circle(s)`);
    if (result.upward.length > workspace.maxUpward) {
      verdict.push(`${result.upward.length} imports run back up (at most ${workspace.maxUpward})`);
    }
    if (result.unplaced.length) verdict.push(`${result.unplaced.length} file(s) on no floor`);
    console.log(
      `${workspace.src}: ${result.files} files, ${result.edges} imports, ` +
        `${result.circles.length} circles, ${result.upward.length} imports running back up ` +
        `(allowed ${workspace.maxUpward})`,
    );
    for (const circle of result.circles) console.log(`  circle: ${circle.join(' ↔ ')}`);
    for (const u of result.upward) {
      console.log(`  back up: ${u.file} → ${u.target}  (${u.from} → ${u.to})`);
    }
    for (const file of result.unplaced) console.log(`  on no floor (add it to FLOORS): ${file}`);
    if (verdict.length) {
      problems++;
      if (check) console.error(`✗ ${workspace.src}: ${verdict.join(', ')}`);
    }
  }
  if (check && problems) {
    console.error(
      'The layering is in README.md (Repository layout). Move the shared constant, type or ' +
        'parser down to the floor that needs it instead of importing upwards.',
    );
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
