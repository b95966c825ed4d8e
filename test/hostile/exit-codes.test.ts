/**
 * The exit-code contract of every command, on the real bins (issue 29 item 3, issue 30):
 * a usage error, a bad flag or env value, a port out of range or in use, an output path that can
 * never be written all exit 2 with ONE line naming the flag/value (plus at most a one-line
 * pointer to --help, never the full help), before any work starts: nothing is written in the
 * working folder and no target or upstream is started. `--version` answers on every command.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../pipeline/constants.ts';
import { buildProgram } from '../../pipeline/cli.ts';

const BIN = { mcpgauge: join(REPO_ROOT, 'bin', 'mcpgauge.mjs'), mcpfixture: join(REPO_ROOT, 'bin', 'mcpfixture.mjs') };
/** the top-level commands, read from the program pipeline/cli.ts builds (a new command needs no edit here) */
const COMMANDS: readonly string[] = buildProgram().commands.map((c) => c.name());
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a bin in `cwd` with stdin closed (a stdio fixture sees EOF), bounded by a timeout. */
function run(bin: keyof typeof BIN, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN[bin], ...args], {
      cwd,
      env: { ...process.env, MCPGAUGE_DEBUG: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let root = '';
let busy: Server;
let busyPort = 0;
/** a file the would-be target / upstream writes when it is started (it must never be) */
let marker = '';
let starter: string[] = [];
let proxyCfg = '';

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'mcpgauge-exit-'));
  marker = join(root, 'started.marker');
  const script = join(root, 'starter.cjs');
  writeFileSync(script, `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); setTimeout(() => {}, 2000);\n`);
  starter = [process.execPath, script];
  proxyCfg = join(root, 'proxy.json');
  writeFileSync(proxyCfg, JSON.stringify({ servers: [{ name: 'up', command: process.execPath, args: [script] }] }));
  writeFileSync(join(root, 'a-file'), 'x');
  mkdirSync(join(root, 'a-folder'));
  busy = createServer();
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
  busyPort = (busy.address() as { port: number }).port;
});
after(async () => {
  await new Promise<void>((r) => busy.close(() => r()));
  rmSync(root, { recursive: true, force: true });
});

type Case = {
  name: string;
  bin?: keyof typeof BIN;
  /** args (a function when they need the temp folder or the busy port) */
  args: () => string[];
  env?: () => Record<string, string>;
  /** what the one error line must say (the flag / value it names) */
  says: () => RegExp;
};

const usage: Case[] = [
  // bare, unknown command, unknown option
  {
    name: 'bare mcpgauge',
    args: () => [],
    says: () => new RegExp(`^mcpgauge: missing command \\(one of: ${COMMANDS.join(', ')}\\)$`),
  },
  { name: 'unknown command', args: () => ['nope'], says: () => /^mcpgauge: unknown command 'nope'$/ },
  { name: 'mistyped command', args: () => ['bnech'], says: () => /^mcpgauge: unknown command 'bnech' \(did you mean bench\?\)$/ },
  { name: 'help for an unknown command', args: () => ['help', 'nope'], says: () => /^mcpgauge: unknown command "nope"/ },
  { name: 'unknown top-level option', args: () => ['--nope'], says: () => /^mcpgauge: unknown option '--nope'$/ },
  {
    name: 'bare corpus',
    args: () => ['corpus'],
    says: () => /^mcpgauge corpus: missing command \(one of: freeze, freeze-results, fetch, validate, info\)$/,
  },
  { name: 'corpus unknown subcommand', args: () => ['corpus', 'nope'], says: () => /^mcpgauge corpus: unknown command 'nope'$/ },
  { name: 'bare models', args: () => ['models'], says: () => /^mcpgauge models: missing command \(one of: fetch\)$/ },
  // an unknown or mistyped option on every command
  ...['bench', 'gate', 'comply', 'diff', 'proxy', 'report', 'fixture'].map(
    (c): Case => ({
      name: `${c} --nope`,
      args: () => [c, ...(c === 'proxy' ? ['--config', proxyCfg] : []), '--nope'],
      says: () => new RegExp(`^mcpgauge ${c}: unknown option '--nope'$`),
    }),
  ),
  { name: 'gate merge --nope', args: () => ['gate', 'merge', '--nope'], says: () => /^mcpgauge gate merge: unknown option '--nope'$/ },
  { name: 'models fetch --nope', args: () => ['models', 'fetch', '--nope'], says: () => /^mcpgauge models fetch: unknown option '--nope'/ },
  {
    name: 'corpus info --nope',
    args: () => ['corpus', 'info', 'x', '--nope'],
    says: () => /^mcpgauge corpus info: unknown option '--nope'$/,
  },
  { name: 'mcpfixture --nope', bin: 'mcpfixture', args: () => ['--nope'], says: () => /^mcpgauge fixture: unknown option '--nope'$/ },
  {
    name: 'bench mistyped --bootstap',
    args: () => ['bench', '--bootstap', '3'],
    says: () => /^mcpgauge bench: unknown option '--bootstap' \(did you mean --bootstrap\?\)$/,
  },
  {
    name: 'comply mistyped --strcit',
    args: () => ['comply', '--strcit', '--', ...starter],
    says: () => /^mcpgauge comply: unknown option '--strcit' \(did you mean --strict\?\)$/,
  },
  // missing arguments and required options
  { name: 'diff with no reports', args: () => ['diff'], says: () => /^mcpgauge diff: missing required argument 'old'$/ },
  {
    name: 'proxy without --config',
    args: () => ['proxy'],
    says: () => /^mcpgauge proxy: required option '--config <file>' not specified$/,
  },
  // bad values
  {
    name: 'bench --bootstrap x',
    args: () => ['bench', '--bootstrap', 'x'],
    says: () => /^mcpgauge: --bootstrap must be an integer >= 1, got "x"$/,
  },
  { name: 'bench --retriever nope', args: () => ['bench', '--retriever', 'nope'], says: () => /^mcpgauge: unknown retriever "nope"/ },
  { name: 'gate --jobs x', args: () => ['gate', '--jobs', 'x'], says: () => /^mcpgauge: --jobs must be an integer >= 0/ },
  {
    name: 'comply --min-grade Z',
    args: () => ['comply', '--min-grade', 'Z', '--', ...starter],
    says: () => /^mcpgauge: --min-grade must be A, B, C, D or F \(got "Z"\)$/,
  },
  {
    name: 'comply --format nope',
    args: () => ['comply', '--format', 'nope', '--', ...starter],
    says: () => /^mcpgauge: --format must be one of .*\(got "nope"\)$/,
  },
  {
    name: 'diff --tokens-pct x',
    args: () => ['diff', 'a.json', 'b.json', '--tokens-pct', 'x'],
    says: () => /^mcpgauge: --tokens-pct must be a number, got "x"$/,
  },
  {
    name: 'corpus freeze --timeout-ms 0',
    args: () => ['corpus', 'freeze', '--out-dir', join(root, 'a-folder'), '--timeout-ms', '0'],
    says: () => /^mcpgauge: --timeout-ms "0": expected a positive integer$/,
  },
  {
    name: 'proxy --transport foo',
    args: () => ['proxy', '--config', proxyCfg, '--transport', 'foo'],
    says: () => /^mcpgauge: --transport must be "http" or "stdio", got "foo"$/,
  },
  {
    name: 'proxy --port 99999',
    args: () => ['proxy', '--config', proxyCfg, '--port', '99999'],
    says: () => /^mcpgauge: --port must be an integer in 0\.\.65535 \(0 = any free port\), got "99999"$/,
  },
  {
    name: 'proxy --port in use',
    args: () => ['proxy', '--config', proxyCfg, '--port', String(busyPort)],
    says: () => new RegExp(`^mcpgauge: --port: port 127\\.0\\.0\\.1:${busyPort} is in use$`),
  },
  {
    name: 'fixture --transport foo',
    args: () => ['fixture', '--transport', 'foo'],
    says: () => /^mcpgauge: --transport: Unknown transport type: "foo"/,
  },
  {
    name: 'mcpfixture --port 99999',
    bin: 'mcpfixture',
    args: () => ['--transport', 'http', '--port', '99999'],
    says: () => /^mcpgauge: --port: port must be 0\.\.65535 \(got 99999\)$/,
  },
  {
    name: 'mcpfixture --port in use',
    bin: 'mcpfixture',
    args: () => ['--transport', 'http', '--port', String(busyPort)],
    says: () => new RegExp(`^mcpgauge: --port: port 127\\.0\\.0\\.1:${busyPort} is in use$`),
  },
  {
    name: 'mcpfixture PORT in use (sse)',
    bin: 'mcpfixture',
    args: () => ['--transport', 'sse'],
    env: () => ({ PORT: String(busyPort) }),
    says: () => new RegExp(`^mcpgauge: PORT: port 127\\.0\\.0\\.1:${busyPort} is in use$`),
  },
  {
    name: 'mcpfixture MCP_TRANSPORT=ws',
    bin: 'mcpfixture',
    args: () => [],
    env: () => ({ MCP_TRANSPORT: 'ws' }),
    says: () => /^mcpgauge: MCP_TRANSPORT: Unknown transport type: "ws"/,
  },
  {
    name: 'mcpfixture BACKEND_MODE=chaos',
    bin: 'mcpfixture',
    args: () => [],
    env: () => ({ BACKEND_MODE: 'chaos' }),
    says: () => /^mcpgauge: unknown BACKEND_MODE "chaos"/,
  },
  {
    name: 'mcpfixture FIXTURE_RATE_LIMIT=x (http)',
    bin: 'mcpfixture',
    args: () => ['--transport', 'http', '--port', '0'],
    env: () => ({ FIXTURE_RATE_LIMIT: 'x' }),
    says: () => /^mcpgauge: FIXTURE_RATE_LIMIT must be a non-negative integer \(got "x"\)$/,
  },
  {
    name: 'mcpfixture FIXTURE_TLS_CERT without a key (http)',
    bin: 'mcpfixture',
    args: () => ['--transport', 'http', '--port', '0'],
    env: () => ({ FIXTURE_TLS_CERT: join(root, 'a-file') }),
    says: () => /^mcpgauge: FIXTURE_TLS_KEY is not set/,
  },
  {
    name: 'mcpfixture --host that is not local',
    bin: 'mcpfixture',
    args: () => ['--transport', 'http', '--port', '0', '--host', '192.0.2.1'],
    says: () => /^mcpgauge: --host: cannot listen on 192\.0\.2\.1:0: 192\.0\.2\.1 is not an address of this machine \(EADDRNOTAVAIL\)$/,
  },
  {
    name: 'mcpfixture FIXTURE_BREAK=nope',
    bin: 'mcpfixture',
    args: () => [],
    env: () => ({ FIXTURE_BREAK: 'nope' }),
    says: () => /^mcpgauge: FIXTURE_BREAK: unknown knob "nope"/,
  },
  // output paths, checked before the target is started
  {
    name: 'comply --out html=<a folder>',
    args: () => ['comply', '--out', `html=${join(root, 'a-folder')}`, '--', ...starter],
    says: () => /^mcpgauge: --out html=.*a-folder: is a folder, expected a file name$/,
  },
  {
    name: 'comply --out json=<a file>/sub/r.json',
    args: () => ['comply', '--out', `json=${join(root, 'a-file', 'sub', 'r.json')}`, '--', ...starter],
    says: () => /^mcpgauge: --out json=.*r\.json: .*a-file is not a folder$/,
  },
  {
    name: 'comply --out sarif=<a file>/x',
    args: () => ['comply', '--out', `sarif=${join(root, 'a-file', 'r.sarif')}`, '--', ...starter],
    says: () => /^mcpgauge: --out sarif=.*: .*a-file is not a folder$/,
  },
  {
    name: 'comply --out html=/proc/...',
    args: () => ['comply', '--out', 'html=/proc/self/r.html', '--', ...starter],
    says: () => /^mcpgauge: --out html=\/proc\/self\/r\.html: a special file system \(\/proc\), not an output file$/,
  },
  {
    name: 'comply --out twice the same file',
    args: () => ['comply', '--out', 'json=r.json,sarif=r.json', '--', ...starter],
    says: () => /^mcpgauge: --out sarif=r\.json: the same file as --out json=r\.json/,
  },
  {
    name: 'comply --record <a folder>',
    args: () => ['comply', '--record', join(root, 'a-folder'), '--', ...starter],
    says: () => /^mcpgauge: --record .*a-folder: is a folder, expected a file name$/,
  },
  {
    name: 'report --out <a folder>',
    args: () => ['report', '--out', join(root, 'a-folder')],
    says: () => /^mcpgauge: --out .*a-folder: is a folder, expected a file name$/,
  },
  {
    name: 'diff --out /proc/...',
    args: () => ['diff', 'a.json', 'b.json', '--out', '/proc/self/diff'],
    says: () => /^mcpgauge: --out \/proc\/self\/diff: a special file system \(\/proc\), not an output folder$/,
  },
];

const POINTER = /^Run "mcpgauge( [a-z-]+)* --help" for usage\.$/;

/** Runs `cases` two at a time (the machine is shared). */
async function pool<T, R>(items: T[], f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]);
      }
    }),
  );
  return out;
}

describe('exit codes of every command (real bins)', () => {
  it('usage errors, bad values, ports and output paths: exit 2, one line naming the value (+ a --help pointer), nothing written or started', async () => {
    const results = await pool(usage, async (c) => {
      const cwd = mkdtempSync(join(root, 'cwd-'));
      const r = await run(c.bin ?? 'mcpgauge', c.args(), cwd, c.env?.());
      const left = readdirSync(cwd);
      rmSync(cwd, { recursive: true, force: true });
      return { c, r, left };
    });
    const problems: string[] = [];
    for (const { c, r, left } of results) {
      const lines = r.stderr.split('\n').filter((l, i, a) => l !== '' || i < a.length - 1);
      const why = `${c.name}: exit ${r.code}, stderr ${JSON.stringify(r.stderr.slice(0, 400))}`;
      if (r.code !== 2) problems.push(`${why}: expected exit 2`);
      else if (!r.stderr.endsWith('\n') || lines.length < 1 || lines.length > 2)
        problems.push(`${why}: expected one line (or two with the --help pointer)`);
      else if (!c.says().test(lines[0])) problems.push(`${why}: the line does not match ${c.says()}`);
      else if (lines.length === 2 && !POINTER.test(lines[1])) problems.push(`${why}: the second line is not the --help pointer`);
      if (r.stdout !== '') problems.push(`${c.name}: wrote to stdout ${JSON.stringify(r.stdout.slice(0, 200))}`);
      if (left.length) problems.push(`${c.name}: left files in its working folder: ${left.join(', ')}`);
    }
    if (existsSync(marker)) problems.push('a target or upstream was started before the check refused the run');
    assert.deepEqual(problems, []);
  });

  it('--version on every command prints the package version and exits 0', async () => {
    for (const c of ['corpus', 'bench', 'fixture', 'proxy', 'diff', 'comply', 'gate', 'report', 'models'])
      assert.ok(COMMANDS.includes(c), c);
    const cmds: Array<[keyof typeof BIN, string[]]> = [
      ['mcpgauge', []],
      ...COMMANDS.map((c): [keyof typeof BIN, string[]] => ['mcpgauge', [c]]),
      ['mcpgauge', ['gate', 'merge']],
      ['mcpgauge', ['corpus', 'info']],
      ['mcpgauge', ['models', 'fetch']],
      ['mcpfixture', []],
    ];
    const results = await pool(cmds, async ([bin, words]) => ({
      words: [bin, ...words].join(' '),
      r: await run(bin, [...words, '--version'], root),
    }));
    const problems = results
      .filter(({ r }) => r.code !== 0 || r.stdout !== `${VERSION}\n` || r.stderr !== '')
      .map(
        ({ words, r }) =>
          `${words} --version: exit ${r.code}, stdout ${JSON.stringify(r.stdout.slice(0, 100))}, stderr ${JSON.stringify(r.stderr.slice(0, 200))}`,
      );
    assert.deepEqual(problems, []);
  });

  it('--help is current: no "(later)" wording, and it exits 0 on stdout', async () => {
    const r = await run('mcpgauge', ['--help'], root);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /\(later\)/);
    assert.match(r.stdout, /gate proxy releases/);
    assert.match(r.stdout, /2 could not run as asked/);
  });
});
