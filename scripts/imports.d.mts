// Types of scripts/imports.mjs, for the tests that import it (apps/server/test/import-structure.test.ts).

export type Floors = [name: string, patterns: RegExp[]][];
export interface Workspace {
  name: string;
  src: string;
  maxUpward: number;
  floors: Floors;
}
export interface UpwardImport {
  file: string;
  target: string;
  from: string;
  to: string;
}
export const WORKSPACES: Workspace[];
export function importGraph(srcDir: string): Map<string, Set<string>>;
export function circles(graph: Map<string, Set<string>>): string[][];
export function floorOf(floors: Floors, file: string): number;
export function upwardImports(
  graph: Map<string, Set<string>>,
  floors: Floors,
): { upward: UpwardImport[]; unplaced: string[] };
export function analyse(workspace: Workspace): {
  files: number;
  edges: number;
  circles: string[][];
  upward: UpwardImport[];
  unplaced: string[];
};
