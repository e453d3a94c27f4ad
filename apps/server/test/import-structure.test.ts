import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  analyse,
  circles,
  featureRoom,
  type Floors,
  importGraph,
  topRoom,
  upwardImports,
  WORKSPACES,
} from '../../../scripts/imports.mjs';

// The lint suite runs `node scripts/imports.mjs --check`; these tests show that it counts what it
// says (README, Repository layout) and that the server and the dashboard stay as they were left.

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'keyward-imports-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('scripts/imports.mjs', () => {
  it('finds a circle through type-only and re-exporting imports, and nothing in a line', () => {
    const dir = folder({
      'config.ts': "import { LIMIT } from './services/limits.ts';\nexport const A = LIMIT;\n",
      'services/limits.ts':
        "export type { Db } from '../db/database.ts';\nexport const LIMIT = 1;\n",
      'db/database.ts': "import type { A } from '../config.ts';\nexport type Db = typeof A;\n",
      'main.ts': "import { A } from './config.ts';\nconsole.log(A);\n",
    });
    const graph = importGraph(dir);
    expect(circles(graph)).toEqual([['config.ts', 'db/database.ts', 'services/limits.ts']]);

    const line = folder({
      'a.ts': "import { b } from './b';\nexport const a = b;\n",
      'b.ts': 'export const b = 1;\n',
    });
    expect(circles(importGraph(line))).toEqual([]);
  });

  it('counts a room importing a room on a higher floor as running back up, once per pair', () => {
    const dir = folder({
      'config.ts': "import { LIMIT } from './services/limits.ts';\nexport const A = LIMIT;\n",
      'services/limits.ts': "import { B } from './budget.ts';\nexport const LIMIT = B;\n",
      'services/budget.ts': "import { A } from '../config.ts';\nexport const B = () => A;\n",
      'services/mail.ts': "import { A } from '../config.ts';\nexport const M = A;\n",
      'stray/x.ts': 'export {};\n',
      'services/limits.test.ts': "import { A } from '../stray/x.ts';\n",
    });
    const floors: Floors = [
      ['ground', [/^config\.ts$/]],
      ['services', [/^services\/$/]],
    ];
    const graph = importGraph(dir);
    expect(graph.has('services/limits.test.ts')).toBe(false);
    const { upward, unplaced, roomCircles } = upwardImports(graph, floors, topRoom);
    expect(upward).toEqual([
      {
        room: 'config.ts',
        target: 'services/',
        from: 'ground',
        to: 'services',
        imports: ['config.ts → services/limits.ts'],
      },
    ]);
    expect(unplaced).toEqual(['stray/']);
    expect(roomCircles).toEqual([]);
  });

  it('finds a circle of rooms on one floor that no file circle shows', () => {
    const dir = folder({
      'features/children/ChildPage.tsx':
        "import { S } from '../keychains/Section';\nexport { S };\n",
      'features/children/api.ts': 'export const useChildren = 1;\n',
      'features/keychains/Section.tsx': 'export const S = 1;\n',
      'features/keychains/Page.tsx':
        "import { useChildren } from '../children/api';\nexport { useChildren };\n",
      'features/inbox/Inbox.tsx': "import { S } from '../keychains/Section';\nexport { S };\n",
    });
    const floors: Floors = [['features', [/^features\/[^/]+\/$/]]];
    const graph = importGraph(dir);
    expect(circles(graph)).toEqual([]);
    const { upward, roomCircles } = upwardImports(graph, floors, featureRoom);
    expect(upward).toEqual([]);
    expect(roomCircles).toEqual([['features/children/', 'features/keychains/']]);
  });

  it.each(WORKSPACES.map((w) => [w.src, w] as const))(
    '%s: no circle, every room on a floor, at most its share of imports running back up',
    (_src, workspace) => {
      const result = analyse(workspace);
      expect(result.files).toBeGreaterThan(100);
      expect(result.circles).toEqual([]);
      expect(result.roomCircles).toEqual([]);
      expect(result.unplaced).toEqual([]);
      expect(result.upward.length).toBeLessThanOrEqual(workspace.maxUpward);
    },
  );
});
