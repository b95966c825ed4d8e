// bundled by test/build/test-bundle.test.ts: prints its own and an imported module's import.meta
import { where } from './where.ts';
process.stdout.write(JSON.stringify({ self: import.meta.filename, helper: where }));
