/**
 * The GitHub Actions workflow of the gate spread over a matrix (docs/ci/gate-matrix.yml): linted
 * by actionlint (pinned, installed by scripts/actionlint.mjs with `go install` into .cache), shown
 * verbatim in docs/gate.md, its matrix list is every cell of gate.config.json plus the yardstick.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './helpers.ts';

const WORKFLOW = join(REPO, 'docs', 'ci', 'gate-matrix.yml');
const text = readFileSync(WORKFLOW, 'utf8');

function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd: REPO, env: { ...process.env, ...env }, timeout: 300_000 }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: unknown }).code : 0;
      done({ code: typeof code === 'number' ? code : null, stdout, stderr });
    });
  });
}

const actionlint = (file: string) =>
  run(process.execPath, [join(REPO, 'scripts', 'actionlint.mjs'), '-no-color', '-format', '{{json .}}', file]);

test('actionlint finds nothing in the workflow, and does find planted mistakes in a copy of it', async () => {
  const clean = await actionlint(WORKFLOW);
  assert.equal(clean.code, 0, `${clean.stdout}${clean.stderr}`);
  assert.deepEqual(JSON.parse(clean.stdout), []);
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-workflow-'));
  try {
    const bad = join(dir, 'bad.yml');
    writeFileSync(bad, text.replace('needs: verdict', 'needs: verdikt').replace('if-no-files-found:', 'if-no-file-found:'));
    const r = await actionlint(bad);
    assert.equal(r.code, 1, r.stderr);
    const kinds = (JSON.parse(r.stdout) as Array<{ kind: string; message: string }>).map((e) => e.kind);
    assert.ok(kinds.includes('job-needs') && kinds.includes('action'), r.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('docs/gate.md shows the workflow file verbatim', () => {
  const doc = readFileSync(join(REPO, 'docs', 'gate.md'), 'utf8');
  assert.ok(doc.includes(`\`\`\`yaml\n${text}\`\`\`\n`), 'docs/gate.md must hold docs/ci/gate-matrix.yml verbatim in a ```yaml block');
});

test("the matrix is every cell of gate.config.json plus the yardstick (the list step's own script, run)", async () => {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.trim() === '- id: list');
  assert.ok(at > 0 && lines[at + 1].trim() === 'run: |', 'the list step is `- id: list` then `run: |`');
  const indent = lines[at + 1].search(/\S/);
  const body: string[] = [];
  for (const l of lines.slice(at + 2)) {
    if (l.trim() !== '' && l.search(/\S/) <= indent) break;
    body.push(l);
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcpgauge-workflow-'));
  try {
    const out = join(dir, 'github-output');
    writeFileSync(out, '');
    const r = await run('bash', ['-e', '-c', body.join('\n')], { GITHUB_OUTPUT: out });
    assert.equal(r.code, 0, r.stderr);
    const line = readFileSync(out, 'utf8').trim();
    assert.match(line, /^cells=\[/);
    const cells = JSON.parse(line.slice('cells='.length)) as Array<{ id: string; slug: string }>;
    const config = JSON.parse(readFileSync(join(REPO, 'gate.config.json'), 'utf8')) as { cells: Record<string, unknown> };
    assert.deepEqual(
      cells.map((c) => c.id),
      [...Object.keys(config.cells), 'yardstick'],
    );
    assert.equal(new Set(cells.map((c) => c.slug)).size, cells.length, 'artifact names are unique');
    for (const c of cells) assert.match(c.slug, /^[A-Za-z0-9._-]+$/, 'a valid artifact name part');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('each cell job uploads its fragment if: always(); the verdict merges them; publish needs a green verdict', () => {
  const job = (name: string) => {
    const m = new RegExp(`^  ${name}:\\n((?:    .*\\n|\\n)*)`, 'm').exec(text);
    assert.ok(m, `job ${name}`);
    return m[1];
  };
  const cell = job('cell');
  assert.match(cell, /matrix:\n\s+cell: \$\{\{ fromJSON\(needs\.cells\.outputs\.cells\) \}\}/);
  assert.match(cell, /gate --cells "\$CELL" --fragment fragment\n/);
  assert.match(
    cell,
    /- uses: actions\/upload-artifact@v4\n\s+if: always\(\)[^\n]*\n\s+with:\n\s+name: gate-fragment-\$\{\{ matrix\.cell\.slug \}\}\n\s+path: fragment\n/,
  );
  const verdict = job('verdict');
  assert.match(verdict, /^ {4}needs: cell\n {4}if: always\(\)/);
  assert.match(verdict, /pattern: gate-fragment-\*\n\s+path: fragments/);
  assert.match(verdict, /gate merge fragments --out results\/gate\n/);
  const publish = job('publish');
  assert.match(publish, /^ {4}needs: verdict\n {4}if: \$\{\{ !cancelled\(\) && needs\.verdict\.result == 'success' \}\}\n/);
});
