// The test layers, as data. UNIT: the files of `make test-quick` (scripts/test-quick.mjs), the
// inner loop: test files that start no process, server, socket, browser or container. Chosen by
// measurement: every file here passed under scripts/lib/unit-guard.mjs (spawn, listen and connect
// throw) and the set ran in 39-47 s on 2 cores at load average 9.5-13.8 (`time node scripts/test-quick.mjs`, dist/ current). `make test` runs every file, these included.
// Held twice: the quick run preloads the guard, and test/util/test-layers.test.ts (full suite)
// checks each file below, and every test/ file it imports, against UNIT_FORBIDDEN.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

export const UNIT = [
  'test/adapter/discovery-response.test.ts',
  'test/adapter/presets.test.ts',
  'test/architecture.test.ts',
  'test/arms/arms.test.ts',
  'test/arms/contract.test.ts',
  'test/arms/golden.test.ts',
  'test/bench/arm-tokens.test.ts',
  'test/bench/default-report.test.ts',
  'test/bench/responses-economics.test.ts',
  'test/cli/conventions.test.ts',
  'test/comply/anchors.test.ts',
  'test/comply/grade.test.ts',
  'test/comply/layout.test.ts',
  'test/comply/registry.test.ts',
  'test/corpus/canonical.test.ts',
  'test/corpus/formats.test.ts',
  'test/corpus/golden.test.ts',
  'test/corpus/hygiene.test.ts',
  'test/corpus/synthetic.test.ts',
  'test/corpus/toolret.test.ts',
  'test/economics/economics.test.ts',
  'test/fixture/config.test.ts',
  'test/fixture/layout.test.ts',
  'test/gate/assemble.test.ts',
  'test/gate/calls.test.ts',
  'test/gate/fronts.test.ts',
  'test/live/spans.test.ts',
  'test/mcp/protocol.test.ts',
  'test/report/dashboard-static.test.ts',
  'test/report/headlines.test.ts',
  'test/report/palette.test.ts',
  'test/report/schema-coverage.test.ts',
  'test/report/summary.test.ts',
  'test/report/validate.test.ts',
  'test/report/write.test.ts',
  'test/retrieval/analyzer.test.ts',
  'test/retrieval/bm25f.test.ts',
  'test/retrieval/cv.test.ts',
  'test/retrieval/embed_static.test.ts',
  'test/retrieval/metrics.test.ts',
  'test/scale/fit.test.ts',
  'test/sections.test.ts',
  'test/systems/kinds.test.ts',
  'test/systems/spec.test.ts',
  'test/tokens/bound.test.ts',
  'test/tokens/chunk_memo.test.ts',
  'test/tokens/engines.test.ts',
  'test/tokens/tokenizer.test.ts',
  'test/toolresults/arms.test.ts',
  'test/util/escape.test.ts',
];

/** what a unit file (or a test/ helper it imports) may not import: what starts processes, servers, sockets, browsers */
export const UNIT_FORBIDDEN = [
  /^(node:)?(child_process|net|http|https|http2|tls|dgram|cluster)$/,
  /^(zx|playwright-core|playwright|dockerode)(\/|$)/,
  // the repo's own launchers: the fixture, the proxy, the live stage, MCP connections, the LAP venv
  // (modules that start things only when asked, e.g. pipeline/models/fetch.ts, are the guard's to catch)
  /(^|\/)pipeline\/(fixture\/launch|proxy\/index|proxy\/serve|live\/live-stage|live\/lap|live\/lap_venv|mcp\/client)\.ts$/,
  /(^|\/)bin\/mcpgauge\.mjs$/,
];

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** the import specifiers of a source text (static, dynamic, side-effect) */
export function importsOf(text) {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]);
}

/**
 * Each UNIT file's forbidden imports, its own and those of the test/ files it imports (followed
 * transitively; pipeline/ modules are judged by the path imported, not followed). [] when clean.
 */
export function unitViolations(root, files = UNIT) {
  const out = [];
  const testDir = resolve(root, 'test');
  for (const file of files) {
    const abs = resolve(root, file);
    if (!existsSync(abs)) {
      out.push(`${file}: listed in UNIT but missing`);
      continue;
    }
    const seen = new Set();
    const walk = (f) => {
      if (seen.has(f)) return;
      seen.add(f);
      for (const spec of importsOf(readFileSync(f, 'utf8'))) {
        const target = spec.startsWith('.') ? relative(root, resolve(dirname(f), spec)) : spec;
        const bad = UNIT_FORBIDDEN.find((re) => re.test(target));
        if (bad) out.push(`${file}: ${f === abs ? '' : `via ${relative(root, f)}: `}imports ${spec}`);
        const next = resolve(dirname(f), spec);
        if (spec.startsWith('.') && next.startsWith(testDir) && existsSync(next)) walk(next);
      }
    };
    walk(abs);
  }
  return out;
}
