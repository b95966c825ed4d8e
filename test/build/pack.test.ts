/**
 * The publishable package: `npm pack` holds dist/, datasets/, the templates and nothing else, and
 * installed into an empty folder it works with no network: `npx mcpgauge --help`,
 * `npx mcpgauge comply -- node server.js`, `npx mcpfixture --transport stdio`, `npx mcpgauge proxy`, `npx mcpgauge bench`.
 * The install is `npm ci --offline` from a lockfile derived from the project's own (the runtime
 * entries, whose tarballs `npm ci` of this repository put in the npm cache), so it needs no
 * registry either; every command after it runs with npm's offline mode on.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';

interface PackFile {
  path: string;
}
interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

const NPM = join(dirname(process.execPath), 'npm');
const NPX = join(dirname(process.execPath), 'npx');
const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
// the installed package's caches (schemas, models, venvs) go here, not into the package folder
const XDG = join(tmpdir(), `mcpgauge-pack-xdg-${process.pid}`);

function run(cmd: string, args: string[], cwd: string, timeoutMs = 180_000, input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      PATH,
      XDG_CACHE_HOME: XDG,
      MCPGAUGE_CACHE_DIR: '',
      npm_config_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
    const c = execFile(cmd, args, { cwd, env, timeout: timeoutMs, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    if (input !== undefined) c.stdin!.end(input);
  });
}

let tmp = '';
let inst = '';
let files: string[] = [];

/** whether the fixture's compile cache (bin/dist-entry.mjs requireLight) was there when the package was packed */
let cacheBeforePack = false;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-pack-'));
  // a fixture start that ends at once writes the fixture's compile cache beside its bundle (when it was missing)
  const fx = await run(process.execPath, [join(REPO_ROOT, 'bin', 'mcpfixture.mjs'), '--transport', 'stdio'], REPO_ROOT, 60_000, '');
  assert.equal(fx.code, 0, fx.stderr);
  const v8 = join(REPO_ROOT, 'dist', 'fixture-bundle', '.v8');
  cacheBeforePack = existsSync(v8) && readdirSync(v8).some((f) => f.endsWith('.bin'));
  const r = await run(NPM, ['pack', '--json', '--pack-destination', tmp], REPO_ROOT);
  assert.equal(r.code, 0, r.stderr);
  const [info] = JSON.parse(r.stdout) as Array<{ filename: string; files: PackFile[] }>;
  files = info.files.map((f) => f.path);
  inst = join(tmp, 'inst');
  mkdirSync(inst);
  const tgz = join(tmp, info.filename);
  // the empty folder's package.json + a lockfile: mcpgauge from the tarball, its dependencies as the project's lockfile pins them
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const root = { name: 'pack-check', version: '1.0.0', dependencies: { mcpgauge: `file:${tgz}` } };
  const packages: Record<string, unknown> = {
    '': root,
    'node_modules/mcpgauge': {
      version: pkg.version,
      resolved: `file:${tgz}`,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [k, v] of Object.entries(lock.packages)) if (k.startsWith('node_modules/') && !v.dev) packages[k] = v;
  writeFileSync(join(inst, 'package.json'), JSON.stringify({ ...root, private: true }, null, 2));
  writeFileSync(
    join(inst, 'package-lock.json'),
    JSON.stringify({ name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages }, null, 1),
  );
  const ci = await run(NPM, ['ci', '--offline', '--loglevel=error'], inst, 240_000);
  assert.equal(ci.code, 0, `npm ci --offline of the tarball failed: ${ci.stderr.slice(-800)}`);
  // a server file of the user's: the installed fixture, as any MCP stdio server
  writeFileSync(join(inst, 'server.js'), "import 'mcpgauge/bin/mcpfixture.mjs';\n");
});

after(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
  rmSync(XDG, { recursive: true, force: true });
});

describe('npm pack: the publishable package', () => {
  it('holds dist/, datasets/, the templates, the bins and nothing else (no tests, no sources, no scripts)', () => {
    const allowed =
      /^(bin\/[^/]+\.mjs|dist\/.+\.(c?js|json)|datasets\/.+|reports-template\/.+|gate\.config\.json|package\.json|README\.md|LICENSE)$/;
    assert.deepEqual(
      files.filter((f) => !allowed.test(f)),
      [],
    );
    for (const need of [
      'bin/mcpgauge.mjs',
      'bin/mcpfixture.mjs',
      'dist/pipeline/cli.js',
      'dist/bundle/cli.js',
      'dist/bundle/worker_body.js',
      'dist/page/chart-runtime.js',
      'dist/page/BUNDLE.json',
      'dist/pipeline/cli/fixture-entry.js',
      'dist/fixture-bundle/fixture.cjs',
      'dist/fixture-bundle/BUNDLE.json',
      'dist/proxy-bundle/proxy.cjs',
      'dist/proxy-bundle/BUNDLE.json',
      'dist/comply-bundle/comply.cjs',
      'dist/comply-bundle/BUNDLE.json',
      'dist/bench-bundle/bench.cjs',
      'dist/bench-bundle/BUNDLE.json',
      'datasets/corpus-npm4-v1.tools.json',
      'datasets/schemas/report.schema.json',
      'reports-template/dashboard.html',
      'gate.config.json',
    ]) {
      assert.ok(files.includes(need), `${need} is in the tarball`);
    }
    assert.deepEqual(
      files.filter((f) => /^(test|pipeline|scripts|docs)\//.test(f) || (f.endsWith('.ts') && !f.startsWith('datasets/seeds/'))),
      [],
    );
    // the compile cache is this machine's: there when packing, and still not in the package
    assert.ok(cacheBeforePack, 'the fixture wrote its compile cache before the pack');
    assert.deepEqual(
      files.filter((f) => f.includes('/.v8/')),
      [],
    );
  });

  it('npx mcpgauge --help', async () => {
    const r = await run(NPX, ['--offline', 'mcpgauge', '--help'], inst);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /Usage: mcpgauge/);
    assert.ok(existsSync(join(inst, 'node_modules', 'mcpgauge', 'dist', 'bundle', 'cli.js')), 'the bundled CLI bin/mcpgauge.mjs runs');
  });

  it('npx mcpgauge comply -- node server.js', async () => {
    const r = await run(
      NPX,
      ['--offline', 'mcpgauge', 'comply', '--spec-version', '2025-11-25', '--format', 'json', '--', process.execPath, 'server.js'],
      inst,
    );
    assert.equal(r.code, 0, r.stderr.slice(-800));
    const rep = JSON.parse(r.stdout) as { runs?: Array<{ grade?: { letter?: string } }> };
    assert.ok(JSON.stringify(rep).includes('"passed"') || JSON.stringify(rep).includes('"pass"'), 'a graded comply report');
  });

  it('npx mcpfixture --transport stdio answers initialize and exits 0 at the end of stdin', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack', version: '1' } },
    };
    const r = await run(NPX, ['--offline', 'mcpfixture', '--transport', 'stdio'], inst, 60_000, `${JSON.stringify(init)}\n`);
    assert.equal(r.code, 0, r.stderr.slice(-800));
    const first = JSON.parse(r.stdout.split('\n')[0]) as { id: number; result: { serverInfo: { name: string } } };
    assert.equal(first.id, 1);
    assert.equal(first.result.serverInfo.name, 'mcpfixture');
  });

  it('npx mcpgauge proxy --transport stdio (its own bundle) validates its config and serves the installed fixture', async () => {
    const fixture = join(inst, 'node_modules', 'mcpgauge', 'bin', 'mcpfixture.mjs');
    const cfg = join(inst, 'proxy.json');
    writeFileSync(cfg, JSON.stringify({ servers: [{ name: 'fx', command: process.execPath, args: [fixture, '--transport', 'stdio'] }] }));
    const msgs = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'pack', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'retrieve_tools', arguments: { query: 'echo' } } },
    ];
    const r = await run(
      NPX,
      ['--offline', 'mcpgauge', 'proxy', '--transport', 'stdio', '--config', cfg],
      inst,
      60_000,
      `${msgs.map((m) => JSON.stringify(m)).join('\n')}\n`,
    );
    assert.equal(r.code, 0, r.stderr.slice(-800));
    const replies = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: { content?: Array<{ text: string }> } });
    const found =
      replies
        .find((x) => x.id === 2)
        ?.result?.content?.map((c) => c.text)
        .join('\n') ?? '';
    assert.match(found, /"name":"fx:echo"/, r.stdout.slice(0, 800));
    // the config is checked against its JSON Schema (ajv, loaded at run time from the install's node_modules)
    writeFileSync(cfg, JSON.stringify({ servers: [{ name: 'fx' }] }));
    const bad = await run(NPX, ['--offline', 'mcpgauge', 'proxy', '--transport', 'stdio', '--config', cfg], inst, 60_000, '');
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /proxy\.json.*servers\[0\]/);
  });

  it('npx mcpgauge bench writes ./results of the working folder and caches to $XDG_CACHE_HOME/mcpgauge, nothing into the package', async () => {
    const pkgDir = join(inst, 'node_modules', 'mcpgauge');
    const help = await run(NPX, ['--offline', 'mcpgauge', 'bench', '--help'], inst);
    assert.match(
      help.stdout,
      /--out <dir>\s+output folder \(default: "results\/discovery"\)/,
      'the default --out is relative, not a path inside the package',
    );
    const r = await run(
      NPX,
      ['--offline', 'mcpgauge', 'bench', '--tokenizers', 'cl100k_base', '--retriever', 'bm25f', '--bootstrap', '10'],
      inst,
    );
    assert.equal(r.code, 0, r.stderr.slice(-800));
    const out = join(inst, 'results', 'discovery');
    const rep = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { arms?: unknown[]; retrieval?: unknown };
    assert.ok(Array.isArray(rep.arms) && rep.arms.length > 0 && rep.retrieval, 'report.json has the offline arms and retrieval');
    assert.ok(existsSync(join(out, 'dashboard.html')));
    assert.ok(!existsSync(join(pkgDir, 'results')), 'no results inside the installed package');
    assert.ok(!existsSync(join(pkgDir, '.cache')), 'no cache inside the installed package');
    assert.ok(existsSync(join(XDG, 'mcpgauge')), `the caches went to $XDG_CACHE_HOME/mcpgauge (${XDG})`);
  });
});
