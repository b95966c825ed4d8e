/**
 * Result fixture files (`datasets/results-<name>-vN.json`): tool-call outputs captured over MCP
 * from real servers, each with its payload and its tabular / non-tabular label.
 *
 *   { "format": "mcpgauge-results", "format_version": 1, "version": "results-reference-v1",
 *     "name", "license", "attribution", "generated_from": {...},
 *     "fixture_count", "tabular_count", "non_tabular_count",
 *     "fixtures_sha256",                       // sha256 of JSON.stringify(fixtures): detects hand edits
 *     "fixtures": [ { "id": "server:tool/label", "server", "tool", "arguments",
 *                     "payload_from": "text_json" | "text" | "content",
 *                     "payload_class": "tabular" | "non_tabular", "not_tabular_because"?,
 *                     "returned": { "content_types", "structured_content", "text_bytes", "text_is_pretty_json"? },
 *                     "payload" } ] }
 *
 * Payload key order is kept as returned (the file is JSON.stringify with 2-space indent, not
 * canonicalized): the `json` arm reproduces the servers' own pretty-printed text, TOON and CSV
 * follow the key order. A version is immutable: a refresh is a new file (`freeze-results`).
 */
import { basename } from 'node:path';
import { sha256Hex } from '../corpus/canonical.ts';
import { fail, isPlainObject, jp, readJson, typeName } from '../corpus/record.ts';
import type { JsonValue } from '../types.ts';
import { classifyPayload, PAYLOAD_CLASSES, whyNotTabular, type PayloadClass } from '../../arms/tabular.ts';

export const RESULTS_FORMAT = 'mcpgauge-results';
export const RESULTS_FORMAT_VERSION = 1;
export const RESULTS_VERSION_RE = /^results-[a-z0-9][a-z0-9._-]*-v[0-9]+$/;
export { PAYLOAD_FROM, type PayloadFrom } from '../report/index.ts';
import { PAYLOAD_FROM, type PayloadFrom } from '../report/index.ts';

export interface ReturnedShape {
  /** content block types in order */
  content_types: string[];
  /** whether the result carried structuredContent */
  structured_content: boolean;
  /** UTF-8 bytes of the concatenated text blocks (after normalization) */
  text_bytes: number;
  /** text_json only: the text equals JSON.stringify(payload, null, 2) (what the `json` arm renders) */
  text_is_pretty_json?: boolean;
}

export interface ResultFixture {
  id: string;
  server: string;
  tool: string;
  arguments: { [k: string]: JsonValue };
  payload_from: PayloadFrom;
  payload_class: PayloadClass;
  not_tabular_because?: string;
  returned: ReturnedShape;
  payload: JsonValue;
}

export interface ResultFixtureFile {
  format: typeof RESULTS_FORMAT;
  format_version: number;
  version: string;
  name: string;
  license: string;
  attribution: string;
  generated_from: { [k: string]: JsonValue };
  fixture_count: number;
  tabular_count: number;
  non_tabular_count: number;
  fixtures_sha256: string;
  fixtures: ResultFixture[];
}

/** A loaded fixture file plus where it came from. */
export interface ResultFixtureSet extends ResultFixtureFile {
  source: string;
}

export function fixturesSha256(fixtures: readonly ResultFixture[]): string {
  return sha256Hex(JSON.stringify(fixtures));
}

/** One fixture with its label computed by the tabular rule (the only way labels are made). */
export function labelFixture(f: Omit<ResultFixture, 'payload_class' | 'not_tabular_because'>): ResultFixture {
  const why = whyNotTabular(f.payload);
  const out: ResultFixture = {
    id: f.id,
    server: f.server,
    tool: f.tool,
    arguments: f.arguments,
    payload_from: f.payload_from,
    payload_class: why === null ? 'tabular' : 'non_tabular',
    returned: f.returned,
    payload: f.payload,
  };
  if (why !== null) {
    // keep the field order stable: label fields before `returned`
    return {
      id: out.id,
      server: out.server,
      tool: out.tool,
      arguments: out.arguments,
      payload_from: out.payload_from,
      payload_class: out.payload_class,
      not_tabular_because: why,
      returned: out.returned,
      payload: out.payload,
    };
  }
  return out;
}

export function serializeResultFixtures(
  meta: Omit<ResultFixtureFile, 'format' | 'format_version' | 'fixture_count' | 'tabular_count' | 'non_tabular_count' | 'fixtures_sha256'>,
): string {
  const file: ResultFixtureFile = {
    format: RESULTS_FORMAT,
    format_version: RESULTS_FORMAT_VERSION,
    version: meta.version,
    name: meta.name,
    license: meta.license,
    attribution: meta.attribution,
    generated_from: meta.generated_from,
    fixture_count: meta.fixtures.length,
    tabular_count: meta.fixtures.filter((f) => f.payload_class === 'tabular').length,
    non_tabular_count: meta.fixtures.filter((f) => f.payload_class === 'non_tabular').length,
    fixtures_sha256: fixturesSha256(meta.fixtures),
    fixtures: meta.fixtures,
  };
  return JSON.stringify(file, null, 2) + '\n';
}

const TOP_KEYS = [
  'format',
  'format_version',
  'version',
  'name',
  'license',
  'attribution',
  'generated_from',
  'fixture_count',
  'tabular_count',
  'non_tabular_count',
  'fixtures_sha256',
  'fixtures',
];
const FIXTURE_KEYS = new Set([
  'id',
  'server',
  'tool',
  'arguments',
  'payload_from',
  'payload_class',
  'not_tabular_because',
  'returned',
  'payload',
]);

/** Validate parsed data as a result fixture file; every problem is a one-line UserError naming file and JSON path. */
export function parseResultFixtures(file: string, data: unknown): ResultFixtureSet {
  if (!isPlainObject(data)) fail(file, '$', `expected an object, got ${typeName(data)}`);
  for (const k of Object.keys(data)) if (!TOP_KEYS.includes(k)) fail(file, jp('$', k), `unknown key (allowed: ${TOP_KEYS.join(', ')})`);
  if (data.format !== RESULTS_FORMAT)
    fail(file, '$.format', `expected ${JSON.stringify(RESULTS_FORMAT)}, got ${JSON.stringify(data.format)}`);
  if (data.format_version !== RESULTS_FORMAT_VERSION)
    fail(
      file,
      '$.format_version',
      `unsupported version ${JSON.stringify(data.format_version)} (this build reads ${RESULTS_FORMAT_VERSION})`,
    );
  for (const k of ['version', 'name', 'license', 'attribution', 'fixtures_sha256']) {
    if (typeof data[k] !== 'string' || (data[k] as string).trim() === '')
      fail(file, `$.${k}`, `must be a non-empty string, got ${JSON.stringify(data[k])}`);
  }
  const version = data.version as string;
  if (!RESULTS_VERSION_RE.test(version)) fail(file, '$.version', `${JSON.stringify(version)} must match ${RESULTS_VERSION_RE}`);
  const stem = basename(file).replace(/\.json$/, '');
  if (/^results-.*-v\d+$/.test(stem) && stem !== version)
    fail(file, '$.version', `${JSON.stringify(version)} differs from the file name stem ${JSON.stringify(stem)}`);
  if (!isPlainObject(data.generated_from)) fail(file, '$.generated_from', `expected an object, got ${typeName(data.generated_from)}`);
  if (!Array.isArray(data.fixtures) || data.fixtures.length === 0) fail(file, '$.fixtures', 'must be a non-empty array');
  const seen = new Set<string>();
  const fixtures = (data.fixtures as unknown[]).map((f, i) => parseFixture(file, `$.fixtures[${i}]`, f, seen));
  const counts: Array<[string, number]> = [
    ['fixture_count', fixtures.length],
    ['tabular_count', fixtures.filter((f) => f.payload_class === 'tabular').length],
    ['non_tabular_count', fixtures.filter((f) => f.payload_class === 'non_tabular').length],
  ];
  for (const [k, n] of counts) if (data[k] !== n) fail(file, `$.${k}`, `is ${JSON.stringify(data[k])} but the fixtures give ${n}`);
  const sha = fixturesSha256(fixtures);
  if (data.fixtures_sha256 !== sha)
    fail(
      file,
      '$.fixtures_sha256',
      `does not match the fixtures (computed ${sha}): frozen fixtures were edited; capture a new version with mcpgauge corpus freeze-results`,
    );
  return { ...(data as unknown as ResultFixtureFile), fixtures, source: file };
}

function parseFixture(file: string, p: string, f: unknown, seen: Set<string>): ResultFixture {
  if (!isPlainObject(f)) fail(file, p, `expected an object, got ${typeName(f)}`);
  for (const k of Object.keys(f)) if (!FIXTURE_KEYS.has(k)) fail(file, jp(p, k), `unknown key (allowed: ${[...FIXTURE_KEYS].join(', ')})`);
  for (const k of ['id', 'server', 'tool'])
    if (typeof f[k] !== 'string' || (f[k] as string).trim() === '')
      fail(file, `${p}.${k}`, `must be a non-empty string, got ${JSON.stringify(f[k])}`);
  const id = f.id as string;
  if (seen.has(id)) fail(file, `${p}.id`, `duplicate fixture id ${JSON.stringify(id)}`);
  seen.add(id);
  if (!isPlainObject(f.arguments)) fail(file, `${p}.arguments`, `expected an object, got ${typeName(f.arguments)}`);
  if (!(PAYLOAD_FROM as readonly unknown[]).includes(f.payload_from))
    fail(file, `${p}.payload_from`, `must be one of ${PAYLOAD_FROM.join(', ')}, got ${JSON.stringify(f.payload_from)}`);
  if (!(PAYLOAD_CLASSES as readonly unknown[]).includes(f.payload_class))
    fail(file, `${p}.payload_class`, `must be one of ${PAYLOAD_CLASSES.join(', ')}, got ${JSON.stringify(f.payload_class)}`);
  if (!('payload' in f) || f.payload === undefined) fail(file, `${p}.payload`, 'missing');
  const computed = classifyPayload(f.payload as JsonValue);
  if (computed !== f.payload_class)
    fail(
      file,
      `${p}.payload_class`,
      `labelled ${f.payload_class} but the tabular rule gives ${computed} (${whyNotTabular(f.payload) ?? 'uniform array of flat objects'})`,
    );
  if (f.payload_from === 'text' && typeof f.payload !== 'string')
    fail(file, `${p}.payload`, `payload_from "text" needs a string payload, got ${typeName(f.payload)}`);
  if (!isPlainObject(f.returned) || !Array.isArray(f.returned.content_types))
    fail(file, `${p}.returned`, 'expected {content_types, structured_content, text_bytes}');
  return f as unknown as ResultFixture;
}

export function loadResultFixtures(file: string): ResultFixtureSet {
  return parseResultFixtures(file, readJson(file));
}
