/**
 * Every `make gate ARGS="…"` example of docs/gate.md's "## Examples" section (the gate's user
 * page; the README links it) is run by a test, parsed from the page as written (so an edited example is what gets run): the reference-proxy
 * lines here, the third-party preset lines in gateways.test.ts. A new example line without a
 * runner fails this file. Kept short: one stdio cell where the line names no cells, no
 * compliance grading, no fixture self-grade (their own tests cover those).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertRedExactly, gateArgsOf, readmeGateExamples, runGateCli } from './helpers.ts';

const fast = (cfg: any) => {
  delete cfg.compliance;
};
const ONE_CELL = ['--cells', 'stdio/2025-11-25'];

/** Which test runs each docs/gate.md example (by its ARGS prefix; '' = bare `make gate`). */
const RUNNERS: Record<string, string> = {
  '': 'this file',
  '--cells ': 'this file',
  '--proxy-cmd ': 'this file',
  '--preset mcp-proxy': 'gateways.test.ts (readmeGateExample)',
  '--preset supergateway': 'gateways.test.ts (readmeGateExample)',
};
const runnerOf = (line: string) => {
  const args = /ARGS="([^"]*)"/.exec(line)?.[1] ?? '';
  const keys = Object.keys(RUNNERS).filter((k) => (k === '' ? args === '' : args.startsWith(k)));
  return keys.sort((a, b) => b.length - a.length)[0];
};

test('every docs/gate.md gate example line has a runner', () => {
  const lines = readmeGateExamples();
  assert.ok(lines.length >= 5, lines.join('\n'));
  for (const l of lines) assert.ok(runnerOf(l) !== undefined, `docs/gate.md gate example without a test: ${l}`);
  assert.deepEqual(new Set(lines.map(runnerOf)), new Set(Object.keys(RUNNERS)), 'every runner still has its docs/gate.md line');
});

test('docs/gate.md gate examples of the reference proxy: bare `make gate` (one cell), the --cells line as written, the --proxy-cmd + template line', async () => {
  const lines = readmeGateExamples().filter((l) => runnerOf(l) !== undefined && RUNNERS[runnerOf(l)!] === 'this file');
  const runs = lines.map((l) => {
    const args = gateArgsOf(l);
    const cells = args.includes('--cells') ? [] : ONE_CELL;
    return { line: l, args: [...args, ...cells, '--no-fixture-grade'] };
  });
  assert.equal(runs.length, 3);
  // two at a time: each run is a gate with --jobs 2 of its own, the machine has two cores
  const results = [];
  for (let i = 0; i < runs.length; i += 2)
    results.push(...(await Promise.all(runs.slice(i, i + 2).map((r) => runGateCli(r.args, {}, { patch: fast })))));
  try {
    for (const [i, r] of results.entries()) {
      assertRedExactly(r, {});
      const want = runs[i].args.includes('--cells') ? runs[i].args[runs[i].args.indexOf('--cells') + 1].split(',') : [];
      assert.deepEqual(r.report!.cells.map((c) => c.id).sort(), want.sort(), runs[i].line);
      if (runs[i].args[0] === '--proxy-cmd')
        assert.match(
          r.report!.proxy.description,
          /--proxy-cmd MCPGAUGE_PROXY_API_KEY=(\[redacted\]|\{API_KEY\}) node \{MCPGAUGE\} proxy --port \{PORT\}/,
        );
    }
  } finally {
    for (const r of results) r.cleanup();
  }
});
