export interface Layers {
  layers: { nodes: string[]; why?: string }[];
  exceptions: { from: string; to: string; reason: string }[];
}
export interface FolderEdge {
  from: string;
  to: string;
  files: string[];
}
export function nodeOf(root: string, file: string): string | null;
export function loadLayers(root: string): Layers;
export function folderEdges(root: string): FolderEdge[];
export function checkLayers(
  root: string,
  layers?: Layers,
): { edges: FolderEdge[]; back: FolderEdge[]; unlisted: FolderEdge[]; stale: Layers['exceptions']; unknown: string[] };
export const FACES: string[];
export function faceViolations(root: string, faces?: string[]): string[];
