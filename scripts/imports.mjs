#!/usr/bin/env node
// The import structure of apps/server/src and apps/web/src, counted from the source itself.
//
//   node scripts/imports.mjs            prints circles, floors and the imports that run back up
//   node scripts/imports.mjs --check    the same; exit code 1 on any circle, or on more imports
//                                       running back up than a workspace allows (the lint suite)
//
// How it counts: every `.ts`/`.tsx` file under the folder is a node, test files (`*.test.ts(x)`)
// aside; every relative import of another file there is an edge: `import`, `import type`,
// `export … from`, `import('…')` in code and in types alike (TypeScript's own scanner,
// `ts.preProcessFile`). Package imports and files outside the folder are ignored.
// - A circle is a strongly connected component of that file graph with more than one file (or a
//   file importing itself): no order exists in which its files could be read one by one.
// - The files make ROOMS: a folder directly under src is one room (`services/`, `db/`), and so is
//   a file directly under it (`config.ts`); in the dashboard each `features/<area>/` is its own
//   room. Room A imports room B when any file of A imports one of B.
// - Each room stands on a floor given by the first pattern in FLOORS that matches its name. A
//   room importing a room on a higher floor is an import that "runs back up" (counted once per
//   pair of rooms, with the file imports that make it). Rooms on one floor may import each other,
//   but not in a circle of rooms (a "room circle").

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The room of a file: the folder directly under src (or the file itself, when it stands there). */
export function topRoom(file) {
  const slash = file.indexOf('/');
  return slash < 0 ? file : file.slice(0, slash + 1);
}

/** The dashboard's rooms: as topRoom, but each `features/<area>/` is a room of its own. */
export function featureRoom(file) {
  const feature = /^features\/[^/]+\//.exec(file);
  return feature ? feature[0] : topRoom(file);
}

/** Floors from the ground up: [name, room name patterns]. */
export const WORKSPACES = [
  {
    name: 'apps/server',
    src: 'apps/server/src',
    roomOf: topRoom,
    // both are the parent-ownership check (operations/ownership.ts), which the unit of work's
    // snapshots (audit/operations.ts) and a suspension decision (requests/) use from below
    maxUpward: 2,
    floors: [
      // the configuration (with Keyward DNS's settings) and the database import nothing above
      ['ground: config, db', [/^config\.ts$/, /^dns-config\.ts$/, /^collections\.ts$/, /^db\/$/]],
      ['services', [/^services\/$/]],
      // the request context, errors, roles, rate limits and read cache every feature is written against
      ['request kernel', [/^pairql\/$/]],
      [
        'features',
        [
          /^(accounts|activity|audit|billing|children|devices|dns|exports)\/$/,
          /^(ios|jobs|keychains|notifications|requests)\/$/,
          /^(announcements|demo-home)\.ts$/,
        ],
      ],
      ['operations', [/^operations\/$/]],
      // the HTTP routes, the PairQL router (http/pairql.ts) among them
      ['http', [/^http\/$/]],
      ['entry points', [/^[^/]+\.ts$/]],
    ],
  },
  {
    name: 'apps/web',
    src: 'apps/web/src',
    roomOf: featureRoom,
    maxUpward: 0,
    floors: [
      ['lib', [/^lib\/$/, /^vite-env\.d\.ts$/]],
      ['components', [/^components\/$/]],
      ['features', [/^features\/[^/]+\/$/]],
      ['app shell', [/^app\/$/]],
      [
        'entry points (browser, server render)',
        [/^main\.tsx$/, /^entry-server\.tsx$/, /^prerender\.tsx$/],
      ],
    ],
  },
];

const SOURCE = /\.(ts|tsx|mts)$/;
const TEST = /\.test\.(ts|tsx|mts)$/;

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : listFiles(path);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [path] : [];
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

export function floorOf(floors, room) {
  return floors.findIndex(([, patterns]) => patterns.some((p) => p.test(room)));
}

/** The room graph: Map<room, Map<room, [file → target, …]>> (a room's imports of itself left out). */
export function roomGraph(graph, roomOf) {
  const rooms = new Map();
  for (const [file, targets] of graph) {
    const from = roomOf(file);
    if (!rooms.has(from)) rooms.set(from, new Map());
    for (const target of targets) {
      const to = roomOf(target);
      if (to === from) continue;
      const arrows = rooms.get(from);
      if (!arrows.has(to)) arrows.set(to, []);
      arrows.get(to).push(`${file} → ${target}`);
    }
  }
  return rooms;
}

/**
 * Every room importing a room on a higher floor (one entry per pair of rooms), the rooms no floor
 * pattern matches, and the circles of rooms within one floor.
 */
export function upwardImports(graph, floors, roomOf = topRoom) {
  const rooms = roomGraph(graph, roomOf);
  const upward = [];
  const unplaced = [];
  const level = new Map();
  for (const [room, arrows] of rooms) {
    const from = floorOf(floors, room);
    if (from < 0) unplaced.push(room);
    else level.set(room, from);
    for (const target of arrows.keys()) if (!rooms.has(target)) rooms.set(target, new Map());
  }
  const sameFloor = new Map();
  for (const [room, arrows] of rooms) {
    const from = level.get(room);
    sameFloor.set(room, new Set());
    if (from === undefined) continue;
    for (const [target, imports] of arrows) {
      const to = level.get(target);
      if (to === undefined) continue;
      if (to > from) {
        upward.push({ room, target, from: floors[from][0], to: floors[to][0], imports });
      } else if (to === from) sameFloor.get(room).add(target);
    }
  }
  return {
    upward: upward.sort((a, b) => a.room.localeCompare(b.room) || a.target.localeCompare(b.target)),
    unplaced: unplaced.sort(),
    roomCircles: circles(sameFloor),
  };
}

export function analyse(workspace) {
  const graph = importGraph(join(root, workspace.src));
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.size, 0);
  const { upward, unplaced, roomCircles } = upwardImports(
    graph,
    workspace.floors,
    workspace.roomOf,
  );
  const rooms = roomGraph(graph, workspace.roomOf);
  const arrows = [...rooms.values()].reduce((sum, targets) => sum + targets.size, 0);
  return {
    files: graph.size,
    edges,
    rooms: rooms.size,
    arrows,
    circles: circles(graph),
    roomCircles,
    upward,
    unplaced,
  };
}

function main(args) {
  const check = args.includes('--check');
  let problems = 0;
  for (const workspace of WORKSPACES) {
    const result = analyse(workspace);
    const verdict = [];
    if (result.circles.length) verdict.push(`${result.circles.length} import circle(s)`);
    if (result.roomCircles.length) {
      verdict.push(`${result.roomCircles.length} circle(s) of rooms on one floor`);
    }
    if (result.upward.length > workspace.maxUpward) {
      verdict.push(`${result.upward.length} imports run back up (at most ${workspace.maxUpward})`);
    }
    if (result.unplaced.length) verdict.push(`${result.unplaced.length} room(s) on no floor`);
    console.log(
      `${workspace.src}: ${result.files} files, ${result.edges} imports; ${result.rooms} rooms, ` +
        `${result.arrows} room-to-room imports; ${result.circles.length} circles, ` +
        `${result.upward.length} imports running back up (allowed ${workspace.maxUpward})`,
    );
    for (const circle of result.circles) console.log(`  circle: ${circle.join(' ↔ ')}`);
    for (const circle of result.roomCircles) console.log(`  room circle: ${circle.join(' ↔ ')}`);
    for (const u of result.upward) {
      console.log(`  back up: ${u.room} → ${u.target}  (${u.from} → ${u.to})`);
      for (const line of u.imports) console.log(`    ${line}`);
    }
    for (const room of result.unplaced) console.log(`  on no floor (add it to FLOORS): ${room}`);
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
