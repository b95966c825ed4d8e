// Where the compiled code is (dist/, written by `make build` / `npm run build`), and one clear
// line (exit 2) when it is missing, instead of a stack trace.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function importDist(rel) {
  const file = fileURLToPath(new URL(`../dist/pipeline/${rel}.js`, import.meta.url));
  if (!existsSync(file)) {
    process.stderr.write(`mcpgauge: ${file} is missing: run \`make build\` (or \`npm run build\`) first\n`);
    process.exit(2);
  }
  return import(pathToFileURL(file).href);
}
