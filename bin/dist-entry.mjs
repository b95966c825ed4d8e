// Where the compiled code is (dist/, written by `make build` / `npm run build`), and one clear
// line (exit 2) when it is missing, instead of a stack trace. `tree`: `pipeline` (tsc's output, one
// file per module) or `bundle` (the bundled CLI, scripts/lib/bundle.mjs) or `fixture-bundle` / `proxy-bundle` (the light bundles).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function importDist(rel, tree = 'pipeline') {
  const file = fileURLToPath(new URL(`../dist/${tree}/${rel}.js`, import.meta.url));
  if (!existsSync(file)) {
    process.stderr.write(`mcpgauge: ${file} is missing: run \`make build\` (or \`npm run build\`) first\n`);
    process.exit(2);
  }
  return import(pathToFileURL(file).href);
}
