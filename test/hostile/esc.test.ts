/**
 * Issue 29, item 2: injection into what people read. A hostile server (comply) and a hostile
 * stdio-served proxy (gate), servers/esc-server.mjs, put markdown links, images, HTML, table
 * breakers, backticks, newlines and terminal escape sequences into every text they control
 * (serverInfo, tool names and descriptions, tool errors, JSON-RPC errors, stderr). What a reader
 * gets must show that text as text: summary.md and $GITHUB_STEP_SUMMARY, comply's markdown, HTML
 * and JUnit files, comply's terminal output and the gate's stderr/stdout (rules: util/escape.ts).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO, runGateCli, type GateRunResult } from '../gate/helpers.ts';
import { assertInertMarkdown, assertInertTerminal, EVIL } from './helpers-esc.ts';
import { renderDashboard } from '../../pipeline/report/dashboard.ts';
import { gateSectionInput } from '../../pipeline/gate/section.ts';
import { REPORT_SECTIONS } from '../../pipeline/sections.ts';
import { buildSampleReport } from '../report/sample.ts';

const SERVER = join(import.meta.dirname, 'servers', 'esc-server.mjs');

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: REPO, env: { ...process.env, ...env }, timeout: 120_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? null) : 0;
        done({ code: typeof code === 'number' ? code : null, stdout, stderr });
      },
    );
  });
}

describe('comply against a hostile server: markdown, terminal, HTML, JUnit', { timeout: 180_000 }, () => {
  let dir: string;
  let term: { code: number | null; stdout: string; stderr: string };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcpgauge-esc-'));
    const outs = ['markdown', 'html', 'junit', 'json'].map((f) => `${f}=${join(dir, `c.${f}`)}`).join(',');
    term = await run(['comply', '--verbose', '--spec-version', '2025-11-25', '--timeout', '5000', '--out', outs, process.execPath, SERVER]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('ran and graded the server', () => {
    assert.equal(term.code, 0, term.stderr);
    const rep = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    assert.ok(rep.runs[0].serverInfo.name.includes(EVIL), 'the payload is the server name as recorded (JSON keeps the data as it came)');
  });

  it('markdown: the payload is text (no link, image, HTML, code span, cell or line of its own)', () => {
    assertInertMarkdown(
      readFileSync(join(dir, 'c.markdown'), 'utf8'),
      'comply markdown',
      /\[spec\]\(https:\/\/modelcontextprotocol\.io\/[^)\s]*\)/g,
    );
  });

  it('terminal: no escape sequence or control character, the payload stays on its line', () => {
    assertInertTerminal(term.stdout, 'comply terminal output');
    assertInertTerminal(term.stdout.split('\n').find((l) => l.startsWith('■'))!, 'comply run title');
    assert.ok(term.stdout.includes('osclabel'), 'the OSC 8 link text is still shown (without its link)');
  });

  it('HTML: the payload is escaped text', () => {
    const page = readFileSync(join(dir, 'c.html'), 'utf8');
    assert.ok(page.includes('APPROVED'), 'the payload reached the page');
    for (const bad of ['<img src=x>', '<script>alert(1)', '<a href="http://127.0.0.1:9'])
      assert.ok(!page.includes(bad), `raw ${bad} in the page`);
    assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), 'the payload is shown as text');
  });

  it('JUnit: no control character XML forbids (the ESC byte makes the file unreadable)', () => {
    const x = readFileSync(join(dir, 'c.junit'), 'utf8');
    assert.ok(x.includes('APPROVED'), 'the payload reached the file');
    assert.doesNotMatch(x, /[\x00-\x08\x0b\x0c\x0e-\x1f]/);
    assert.ok(!x.includes('<script>'), 'markup escaped');
  });
});

describe('gate against a hostile stdio-served proxy: summary.md, $GITHUB_STEP_SUMMARY, stderr', { timeout: 420_000 }, () => {
  let r: GateRunResult & { cleanup(): void };
  let ghDir: string;
  let gh: string;
  before(async () => {
    ghDir = mkdtempSync(join(tmpdir(), 'mcpgauge-esc-gh-'));
    gh = join(ghDir, 'step-summary.md');
    // stdio/2025-11-25: the proxy serves, every call is a tool error carrying the payload;
    // stdio/2026-07-28 ({ERA} = 2026-…): it writes the payload on stderr and exits before it is ready
    r = await runGateCli(
      ['--cells', 'stdio/2025-11-25,stdio/2026-07-28', '--no-fixture-grade', '--verbose', '--proxy-cmd', `{NODE} ${SERVER} {ERA}`],
      { GITHUB_STEP_SUMMARY: gh },
      {
        // a stdio-served proxy that exits is retried until the ready deadline: keep it short
        patch: (c) => (c.timeouts.ready_ms = 3000),
      },
    );
  });
  after(() => {
    r?.cleanup();
    rmSync(ghDir, { recursive: true, force: true });
  });

  it('ran: red, with the payload in the failing steps', () => {
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr.slice(-2000)}`);
    const steps = r.report!.cells.flatMap((c) => c.steps.filter((s) => s.status === 'fail').map((s) => `${c.id} ${s.name}`));
    assert.ok(steps.includes('stdio/2025-11-25 call'), steps.join(', '));
    assert.ok(steps.includes('stdio/2026-07-28 ready'), steps.join(', '));
  });

  it('summary.md renders no link, image or HTML of the proxy, and the same for $GITHUB_STEP_SUMMARY', () => {
    const own = /\[[\w.-]+\.log\]\(logs\/[^)\s]+\)/g;
    const summary = readFileSync(join(r.out, 'summary.md'), 'utf8');
    assertInertMarkdown(summary, 'summary.md', own);
    assert.equal(readFileSync(gh, 'utf8'), summary, '$GITHUB_STEP_SUMMARY gets the same text');
    assert.match(summary, /^# mcpgauge release gate: ❌ FAIL$/m, 'our own heading still renders');
    assert.match(
      summary,
      /^- ❌ \*\*stdio\/2025-11-25\*\*: fail \(required, 1 attempt\)\n( {2}- .*\n)* {2}- ❌ step 3 call: echo returned a tool error: /m,
      'our own bold cell name still renders, the step under it',
    );
  });

  it('stderr and stdout: no escape sequence or control character', () => {
    assertInertTerminal(r.stderr, 'gate stderr');
    assertInertTerminal(r.stdout, 'gate stdout');
  });

  it('junit.xml: no control character XML forbids', () => {
    const x = readFileSync(join(r.out, 'junit.xml'), 'utf8');
    assert.ok(x.includes('APPROVED'));
    assert.doesNotMatch(x, /[\x00-\x08\x0b\x0c\x0e-\x1f]/);
  });

  it("the dashboard's gate grid of this report: the proxy's text is escaped (confirms the HTML path)", async () => {
    const page = await renderDashboard(buildSampleReport(), REPORT_SECTIONS, [gateSectionInput(r.report!)]);
    const grid = page.slice(page.indexOf('id="gate-grid"'));
    assert.ok(grid.includes('APPROVED'), 'the payload reached the grid');
    for (const bad of ['<img src=x>', '<script>alert(1)']) assert.ok(!grid.includes(bad), `raw ${JSON.stringify(bad)} in the gate grid`);
  });
});
