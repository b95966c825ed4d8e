#!/usr/bin/env node
// `make fixture-image`: build the fixture image (default tag mcpfixture:local, or
// $MCPGAUGE_FIXTURE_IMAGE) on the Docker engine that answers. Two paths, one layout
// (docs/docker.md):
//   registry  node:20-slim is present or pullable: `docker build` of ./Dockerfile
//   local     no registry: a base image made here (`docker import` of a root file system with
//             this machine's node, /bin/sh, env and the shared libraries ldd lists), then
//             docker/Dockerfile.local copies in what the host has already installed: the
//             bundles docker/bundle.mjs makes from node_modules (and dist/ when present).
// Then a smoke run: `docker run --rm -i --network none IMAGE` (the image's CMD) must answer an
// initialize; the time to that answer is printed.
// Flags: --local | --registry (force a path), --if-engine (no engine: say so and exit 0; used by
// `make gate`), --no-smoke. Exit 0 built (or up to date), 1 the built image does not answer,
// 2 cannot build (no engine, a build that fails).
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2).filter((a) => a !== '--');
const known = ['--local', '--registry', '--if-engine', '--no-smoke'];
for (const a of args) if (!known.includes(a)) fail(2, `unknown flag ${JSON.stringify(a)} (flags: ${known.join(' ')})`);
const TAG = process.env.MCPGAUGE_FIXTURE_IMAGE || 'mcpfixture:local';
const REGISTRY_BASE = 'node:20-slim';
const say = (m) => process.stdout.write(`fixture-image: ${m}\n`);

function fail(code, m) {
  process.stderr.write(`fixture-image: ${m}\n`);
  process.exit(code);
}

function docker(argv, opts = {}) {
  const r = spawnSync('docker', argv, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.error) return { status: -1, stdout: '', stderr: r.error.code === 'ENOENT' ? 'docker: command not found' : String(r.error.message) };
  return r;
}

const info = docker(['info', '--format', '{{.ServerVersion}}'], { timeout: 15_000 });
if (info.status !== 0) {
  const why = (info.stderr || info.stdout || '').trim().split('\n').pop();
  if (args.includes('--if-engine')) {
    say(`no Docker engine answers (${why}); the docker cell will be skipped`);
    process.exit(0);
  }
  fail(2, `no Docker engine answers: ${why}`);
}

function registryBaseAvailable() {
  if (docker(['image', 'inspect', REGISTRY_BASE]).status === 0) return true;
  say(`${REGISTRY_BASE} is not present; trying to pull it (60 s at most)`);
  const r = docker(['pull', '-q', REGISTRY_BASE], { timeout: 60_000 });
  if (r.status === 0) return true;
  say(`cannot pull ${REGISTRY_BASE} (${(r.stderr || 'timed out').trim().split('\n').pop()}): building the local base instead`);
  return false;
}

const mode = args.includes('--local') ? 'local' : args.includes('--registry') ? 'registry' : registryBaseAvailable() ? 'registry' : 'local';
const work = mkdtempSync(join(tmpdir(), 'mcpgauge-image-'));
let code = 0;
try {
  if (mode === 'registry') {
    say(`registry path: docker build -t ${TAG} . (FROM ${REGISTRY_BASE})`);
    const r = docker(['build', '-t', TAG, '.'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) fail(2, `docker build exited with ${r.status}`);
  } else buildLocal();
  if (!args.includes('--no-smoke')) code = await smoke();
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(code);

/** the shared libraries a binary needs, as ldd lists them (absolute paths) */
function lddLibs(bin) {
  const r = spawnSync('ldd', [bin], { encoding: 'utf8' });
  if (r.status !== 0) return []; // a static binary
  return [...r.stdout.matchAll(/(\/[^\s)]+)/g)].map((m) => m[1]).filter((p) => existsSync(p));
}

/** copy `from` to the same absolute path under `rootfs` (following symlinks) */
function place(rootfs, from, to = from) {
  const dest = join(rootfs, to);
  mkdirSync(dirname(dest), { recursive: true });
  copyFileSync(realpathSync(from), dest);
  chmodSync(dest, statSync(realpathSync(from)).mode & 0o777);
}

/** the base image: this machine's node, /bin/sh and env with their libraries; tagged by node version */
function ensureBase() {
  const tag = `mcpgauge-base:node${process.versions.node}`;
  if (docker(['image', 'inspect', tag]).status === 0) return tag;
  say(`making the local base ${tag} (docker import of a minimal root file system)`);
  const rootfs = join(work, 'rootfs');
  const bins = [
    [process.execPath, '/usr/local/bin/node'],
    ['/bin/sh', '/bin/sh'],
    ['/usr/bin/env', '/usr/bin/env'],
  ];
  for (const [from, to] of bins) {
    place(rootfs, from, to);
    for (const lib of lddLibs(from)) place(rootfs, lib);
  }
  // node ships with debug info: stripped it is ~13 MB smaller (every vfs container copies it)
  spawnSync('strip', [join(rootfs, 'usr', 'local', 'bin', 'node')]);
  // the same user as node:20-slim (node, uid 1000), a writable /tmp
  mkdirSync(join(rootfs, 'etc'), { recursive: true });
  writeFileSync(join(rootfs, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
  writeFileSync(join(rootfs, 'etc', 'group'), 'root:x:0:\nnode:x:1000:\n');
  for (const d of ['tmp', 'root', 'home/node']) mkdirSync(join(rootfs, d), { recursive: true });
  chmodSync(join(rootfs, 'tmp'), 0o1777);
  const tar = join(work, 'rootfs.tar');
  const t = spawnSync('tar', ['--numeric-owner', '--owner=0', '--group=0', '-C', rootfs, '-cf', tar, '.'], { stdio: 'inherit' });
  if (t.status !== 0) fail(2, 'tar of the base root file system failed');
  const r = docker(['import', '--change', 'ENV PATH=/usr/local/bin:/usr/bin:/bin', '--change', 'CMD ["node"]', tar, tag]);
  if (r.status !== 0) fail(2, `docker import failed: ${r.stderr.trim()}`);
  return tag;
}

/** sha256 over the context (paths, modes, contents, symlink targets) and the base image id */
function contextHash(dir, baseId) {
  const h = createHash('sha256').update(baseId);
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      h.update(relative(dir, p));
      if (e.isSymbolicLink()) h.update(`-> ${readlinkSync(p)}`);
      else if (e.isDirectory()) walk(p);
      else h.update(String(statSync(p).mode)).update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex').slice(0, 32);
}

function buildLocal() {
  const base = ensureBase();
  const baseId = docker(['image', 'inspect', '--format', '{{.Id}}', base]).stdout.trim();
  // the context is the image's file tree: COPY . / puts it in place in one layer
  const ctx = join(work, 'ctx');
  const app = join(ctx, 'app');
  mkdirSync(app, { recursive: true });
  const b = spawnSync(process.execPath, [join(root, 'docker', 'bundle.mjs'), join(app, '.image')], { cwd: root, encoding: 'utf8' });
  if (b.status !== 0) fail(2, `bundling failed: ${(b.stderr || b.stdout).trim()}`);
  copyFileSync(join(root, 'package.json'), join(app, 'package.json'));
  cpSync(join(root, 'datasets'), join(app, 'datasets'), { recursive: true });
  for (const f of ['mcpfixture', 'mcpgauge-proxy']) {
    copyFileSync(join(root, 'docker', f), join(ctx, f));
    chmodSync(join(ctx, f), 0o755);
  }
  mkdirSync(join(ctx, 'usr', 'local', 'bin'), { recursive: true });
  symlinkSync('/mcpfixture', join(ctx, 'usr', 'local', 'bin', 'mcpfixture'));
  symlinkSync('/mcpgauge-proxy', join(ctx, 'usr', 'local', 'bin', 'mcpgauge-proxy'));
  const hash = contextHash(ctx, baseId);
  copyFileSync(join(root, 'docker', 'Dockerfile.local'), join(ctx, 'Dockerfile'));
  writeFileSync(join(ctx, '.dockerignore'), 'Dockerfile\n.dockerignore\n');
  const have = docker(['image', 'inspect', '--format', '{{index .Config.Labels "mcpgauge.context-hash"}}', TAG]);
  if (have.status === 0 && have.stdout.trim() === hash) {
    say(`${TAG} is up to date (local path, context ${hash})`);
    return;
  }
  say(`local path: docker build -f docker/Dockerfile.local --build-arg BASE=${base} -t ${TAG}`);
  const before = docker(['image', 'inspect', '--format', '{{.Id}}', TAG]).stdout.trim();
  const r = docker(['build', '--build-arg', `BASE=${base}`, '--label', `mcpgauge.context-hash=${hash}`, '-t', TAG, ctx], {
    stdio: 'inherit',
  });
  if (r.status !== 0) fail(2, `docker build exited with ${r.status}`);
  // the image it replaces would stay as a dangling copy (vfs: ~100 MB each); no-op when a container or tag still uses it
  if (before && before !== docker(['image', 'inspect', '--format', '{{.Id}}', TAG]).stdout.trim()) docker(['rmi', before]);
}

/** run inside the image: spawn /mcpfixture, send initialize, print the ms to its answer */
function startProbe() {
  return `const t0 = performance.now();
const c = require('node:child_process').spawn('/mcpfixture', ['--transport', 'stdio'], { stdio: ['pipe', 'pipe', 'ignore'] });
c.stdout.once('data', () => { console.log(Math.round(performance.now() - t0)); c.stdin.end(); });
c.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } }) + '\\n');`;
}

/** run the image's CMD once, pipe an initialize, time the first answer */
function smoke() {
  return new Promise((done) => {
    const t0 = performance.now();
    const child = spawn('docker', ['run', '--rm', '-i', '--network', 'none', '--label', 'mcpgauge.run=fixture-image-smoke', TAG], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.stdin.end(), 60_000);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) child.stdin.end();
    });
    child.stderr.setEncoding('utf8').on('data', (d) => (err += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = Math.round(performance.now() - t0);
      let msg;
      try {
        msg = JSON.parse(out.split('\n')[0]);
      } catch {
        /* no answer */
      }
      const user = docker([
        'image',
        'inspect',
        '--format',
        '{{.Config.User}} {{json .Config.Cmd}} {{json .Config.Entrypoint}} {{.Size}}',
        TAG,
      ]).stdout.trim();
      if (msg?.result?.serverInfo?.name !== 'mcpfixture' || code !== 0) {
        process.stderr.write(
          `fixture-image: the image did not answer an initialize (exit ${code}): ${out.slice(0, 200)} ${err.slice(-500)}\n`,
        );
        return done(1);
      }
      say(
        `${TAG} (${mode} path) answered initialize as mcpfixture ${msg.result.serverInfo.version} ${ms} ms after docker run (engine + fixture); user/cmd/entrypoint/bytes: ${user}`,
      );
      // the fixture's own start inside the container: process spawn to the initialize answer
      const inside = docker(
        ['run', '--rm', '--network', 'none', '--label', 'mcpgauge.run=fixture-image-smoke', TAG, 'node', '-e', startProbe()],
        { timeout: 60_000 },
      );
      say(
        `inside the container, /mcpfixture answered initialize ${inside.stdout.trim() || `? (${inside.stderr.trim().slice(-200)})`} ms after it was spawned`,
      );
      done(0);
    });
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fixture-image', version: '1' } } })}\n`,
    );
  });
}
