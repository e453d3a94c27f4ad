import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  analyse,
  circles,
  type Floors,
  importGraph,
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

  it('counts an import from a lower floor into a higher one as running back up', () => {
    const dir = folder({
      'config.ts': "import { LIMIT } from './services/limits.ts';\nexport const A = LIMIT;\n",
      'services/limits.ts': 'export const LIMIT = 1;\n',
      'services/mail.ts': "import { A } from '../config.ts';\nexport const M = A;\n",
      'stray/x.ts': 'export {};\n',
    });
    const floors: Floors = [
      ['ground', [/^config\.ts$/]],
      ['services', [/^services\//]],
    ];
    const { upward, unplaced } = upwardImports(importGraph(dir), floors);
    expect(upward).toEqual([
      { file: 'config.ts', target: 'services/limits.ts', from: 'ground', to: 'services' },
    ]);
    expect(unplaced).toEqual(['stray/x.ts']);
  });

  it.each(WORKSPACES.map((w) => [w.src, w] as const))(
    '%s: no circle, every file on a floor, at most its share of imports running back up',
    (_src, workspace) => {
      const result = analyse(workspace);
      expect(result.files).toBeGreaterThan(100);
      expect(result.circles).toEqual([]);
      expect(result.unplaced).toEqual([]);
      expect(result.upward.length).toBeLessThanOrEqual(workspace.maxUpward);
    },
  );
});
