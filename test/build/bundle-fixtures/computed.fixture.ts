// bundled by test/build/test-bundle.test.ts: a computed import of a .ts source (needs tsx at run time)
import { join } from 'node:path';
const mod = (await import(join(import.meta.dirname, 'where.ts'))) as { where: { filename: string } };
process.stdout.write(JSON.stringify({ helper: mod.where.filename }));
