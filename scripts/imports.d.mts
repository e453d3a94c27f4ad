// Types of scripts/imports.mjs, for the tests that import it (apps/server/test/import-structure.test.ts).

export type Floors = [name: string, patterns: RegExp[]][];
export interface Workspace {
  name: string;
  src: string;
  roomOf: (file: string) => string;
  maxUpward: number;
  floors: Floors;
}
export interface UpwardImport {
  room: string;
  target: string;
  from: string;
  to: string;
  /** the file imports that make the room import the other: `file → target` */
  imports: string[];
}
export const WORKSPACES: Workspace[];
export function topRoom(file: string): string;
export function featureRoom(file: string): string;
export function importGraph(srcDir: string): Map<string, Set<string>>;
export function circles(graph: Map<string, Set<string>>): string[][];
export function floorOf(floors: Floors, room: string): number;
export function roomGraph(
  graph: Map<string, Set<string>>,
  roomOf: (file: string) => string,
): Map<string, Map<string, string[]>>;
export function upwardImports(
  graph: Map<string, Set<string>>,
  floors: Floors,
  roomOf?: (file: string) => string,
): { upward: UpwardImport[]; unplaced: string[]; roomCircles: string[][] };
export function analyse(workspace: Workspace): {
  files: number;
  edges: number;
  rooms: number;
  arrows: number;
  circles: string[][];
  roomCircles: string[][];
  upward: UpwardImport[];
  unplaced: string[];
};
