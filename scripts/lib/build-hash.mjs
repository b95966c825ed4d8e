// The sources dist/ is compiled from, and their hash (recorded in dist/BUILD.json by
// scripts/build.mjs; test/build/dist.test.ts fails when it differs from the current sources).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const BUILD_STAMP = 'BUILD.json';

/** every file the build reads: pipeline/**\/*.ts, arms/**\/*.ts, the two tsconfigs, package.json, the bundle settings (sorted, repo-relative) */
export function buildInputs(root) {
  const out = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) out.push(relative(root, p));
    }
  };
  walk(join(root, 'pipeline'));
  walk(join(root, 'arms'));
  out.push('tsconfig.json', 'tsconfig.build.json', 'package.json', 'scripts/lib/bundle.mjs');
  return out.sort();
}

export function sourcesHash(root) {
  const h = createHash('sha256');
  for (const f of buildInputs(root))
    h.update(`${f}\0`)
      .update(readFileSync(join(root, f)))
      .update('\0');
  return h.digest('hex');
}
