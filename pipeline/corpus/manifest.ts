/**
 * FETCH.json: what `corpus fetch` cached (written next to the cached bytes, never committed).
 * Loaders read it to learn the pinned revision of what they load.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readInputText } from '../util/fs.ts';

export const MANIFEST_NAME = 'FETCH.json';

export interface FetchedFile {
  /** path relative to the cache folder */
  path: string;
  /** path inside the upstream repository */
  upstream_path: string;
  bytes: number;
  sha256: string;
}

export interface FetchPart {
  /** Hugging Face dataset repo, e.g. "ICIP/LiveMCPBench" */
  repo: string;
  revision: string;
  files: FetchedFile[];
}

export interface FetchManifest {
  dataset: 'livemcptool' | 'toolret';
  /** "network" (downloaded from the Hub) or "mirror" (copied from --from DIR) */
  source: 'network' | 'mirror';
  /** base URL or mirror folder */
  origin: string;
  fetched_at: string;
  parts: FetchPart[];
  /** loader summary of what was cached (tool/query counts) */
  summary: Record<string, number | string>;
}

export function readManifest(dir: string): FetchManifest | undefined {
  const p = join(dir, MANIFEST_NAME);
  if (!existsSync(p)) return undefined;
  try {
    const m = JSON.parse(readInputText(p, 'a JSON file')) as FetchManifest;
    return Array.isArray(m?.parts) ? m : undefined;
  } catch {
    return undefined;
  }
}

/** Revision of `repo` recorded in the manifest of `dir`, if any. */
export function manifestRevision(dir: string, repo: string): string | undefined {
  return readManifest(dir)?.parts.find((p) => p.repo === repo)?.revision;
}
