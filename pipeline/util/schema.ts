/**
 * JSON Schema helpers (draft 2020-12, ajv + ajv-formats): the one place ajv is set up. Schema
 * files (the report, the gate's config/fragment/report, presets, the comply report) compile with
 * `compileSchemaFile` (strict, all errors, formats, cached); schemas that arrive at run time (a
 * server's outputSchema) with `compileSchema`; errors read as one line with `describeAjvError`
 * (path, message, the offending key/values) or `briefAjvError` (path and message only).
 * ajv is CommonJS and loaded only when a schema is compiled (the fixture never loads it).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { CACHE_ROOT } from '../constants.ts';
import { writeFileAtomic } from './fs.ts';

export type { ErrorObject, ValidateFunction };

const AJV_OPTIONS = { allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true } as const;
/** bump when the way the cached code is made changes */
const AJV_CACHE_FORMAT = 1;
const require = createRequire(import.meta.url);

/**
 * Compile a JSON Schema file (draft 2020-12, strict, with formats).
 * `refs`: further schema files the main one `$ref`s by their `$id` (e.g. the gate fragment -> the gate report).
 * Compiling the report schema takes ajv most of a second, so the compiled validator is kept as
 * ajv standalone code under .cache/ajv/, keyed by the schema texts, ajv's and ajv-formats'
 * versions and the options: the same code ajv would generate, so the same verdicts and errors.
 * A cache that cannot be read or written is ignored (compiled per process, as before).
 */
export function compileSchemaFile(path: string, refs: readonly string[] = []): ValidateFunction {
  const texts = [readFileSync(path, 'utf8'), ...refs.map((r) => readFileSync(r, 'utf8'))];
  const versions = ['ajv', 'ajv-formats'].map((m) => (require(`${m}/package.json`) as { version: string }).version);
  const key = createHash('sha256')
    .update(JSON.stringify([AJV_CACHE_FORMAT, versions, AJV_OPTIONS, texts]))
    .digest('hex')
    .slice(0, 32);
  const file = join(CACHE_ROOT, 'ajv', `${key}.cjs`);
  try {
    const got = runStandalone(file) as ValidateFunction;
    if (typeof got === 'function') return got;
  } catch {
    /* no cache yet, or unreadable: compile */
  }
  // ajv and ajv-formats are CommonJS, loaded only when a schema is compiled
  const Ajv2020 = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js').default;
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const standaloneCode = require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js').default;
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true } });
  addFormats(ajv);
  for (const t of texts.slice(1)) ajv.addSchema(JSON.parse(t));
  const validate = ajv.compile(JSON.parse(texts[0]));
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, standaloneCode(ajv, validate));
    renameSync(tmp, file);
  } catch {
    /* read-only install: compile per process */
  }
  return validate;
}

/**
 * Run a validator's cached standalone code (a CommonJS module). Its require() calls (ajv's runtime
 * helpers, ajv-formats) resolve from this module, so from this package's dependencies wherever the
 * cache lives: node's own require(file) resolves from the file's folder, which for an installed
 * package (the cache under ~/.cache/mcpgauge) holds no node_modules, and the schema was compiled
 * anew on every run. Compiled with V8's code cache, kept beside it per node version and arch
 * (`<file>.<version>-<arch>.v8`, written at exit when missing or rejected, then holding the
 * functions the run compiled): compileSchemaFile of the report schema (a 0.6 MB validator)
 * takes ~9 ms with it, ~16 ms without (measured 2026-12-04).
 */
function runStandalone(file: string): unknown {
  // once per process, as require() would keep it
  if (standalone.has(file)) return standalone.get(file);
  const src = readFileSync(file, 'utf8');
  const codeCache = `${file}.${process.version}-${process.arch}.v8`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCache);
  } catch {
    /* none yet */
  }
  const script = new vm.Script(`(function (exports, require, module) {${src}\n})`, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (e: unknown, r: NodeJS.Require, m: { exports: unknown }) => void)(module.exports, require, module);
  if (!cachedData || script.cachedDataRejected)
    process.once('exit', () => {
      try {
        writeFileAtomic(codeCache, script.createCachedData());
      } catch {
        /* read-only cache: compiled per process */
      }
    });
  standalone.set(file, module.exports);
  return module.exports;
}
const standalone = new Map<string, unknown>();

/** One ajv error as `path message (detail)`. */
export function describeAjvError(e: ErrorObject): string {
  const where = e.instancePath === '' ? '/' : e.instancePath;
  let msg = e.message ?? 'invalid';
  if (e.keyword === 'additionalProperties') msg += ` (${JSON.stringify((e.params as { additionalProperty: string }).additionalProperty)})`;
  else if (e.keyword === 'enum')
    msg += ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join('|')})`;
  else if (e.keyword === 'const') msg += ` (${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)})`;
  return `${where} ${msg}`;
}

/** ajv options for a schema a server declares (its outputSchema): unknown keywords allowed, formats not checked */
export const SERVER_SCHEMA_OPTIONS: Options = { strict: false, validateFormats: false };

/** one ajv instance made ahead for SERVER_SCHEMA_OPTIONS, its meta-schema compiled (prepareSchemaCompiler) */
let spare: import('ajv/dist/2020.js').default | null = null;

function freshAjv(options: Options) {
  const Ajv2020 = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js').default;
  return new Ajv2020(options);
}

/**
 * Make the next `compileSchema(x, SERVER_SCHEMA_OPTIONS)` cheap: load ajv and compile its
 * draft 2020-12 meta-schema now (about 90 ms of CPU, most of a comply run's judging), for a
 * caller that is waiting on a server anyway. The instance is used once, as a fresh one would be.
 */
export function prepareSchemaCompiler(): void {
  if (spare) return;
  const ajv = freshAjv(SERVER_SCHEMA_OPTIONS);
  ajv.validateSchema({});
  spare = ajv;
}

/**
 * Compile a schema object given at run time (no cache, no formats) on a fresh ajv instance:
 * `options` are ajv's, e.g. SERVER_SCHEMA_OPTIONS for a server's declared outputSchema. Throws
 * what ajv throws when the schema does not compile.
 */
export function compileSchema(schema: object, options: Options = {}): ValidateFunction {
  const ajv = spare && options === SERVER_SCHEMA_OPTIONS ? spare : freshAjv(options);
  if (ajv === spare) spare = null;
  return ajv.compile(schema);
}

/** One ajv error as `path message` (`/` for the root; an absent error reads "/ undefined"). */
export function briefAjvError(e: ErrorObject | undefined): string {
  return `${e?.instancePath || '/'} ${e?.message}`;
}
