/**
 * Lists and counts in the docs that restate a registry stay equal to it (issue 33). Each entry of
 * LISTS names a page (or `help: <command> <--flag>`, that option's help text in the real CLI
 * program), the span that holds one list (from a start phrase to an end phrase) and the registry
 * it restates; the ids named in the span (backticked, or read in the span's own way) must be
 * exactly the registry's ids, and a count must be the registry's length. A changed registry
 * fails here until its text follows, naming page, list and the ids that differ. The checker's own
 * test plants a wrong entry into every list and count (a made-up id in place of a real one, each
 * count off by one) and requires each to be reported, so every entry can fail. Reads files,
 * registries and the command setup only: no process. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ARMS } from '../arms/registry.ts';
import { RESULT_ARMS } from '../arms/result-registry.ts';
import { CORPUS_FORMATS } from '../pipeline/corpus/index.ts';
import { CORPUS_FORMAT_LIST } from '../pipeline/corpus/formats/index.ts';
import { retrieverIds } from '../pipeline/retrieval/index.ts';
import { STEP_NAMES } from '../pipeline/gate/steps/index.ts';
import { catalogFor } from '../pipeline/comply/judge/select.ts';
import { presetNames } from '../pipeline/adapter/index.ts';
import { SYSTEM_KINDS } from '../pipeline/systems/kinds/index.ts';
import * as reportFace from '../pipeline/report/index.ts';
import { KNOBS } from '../pipeline/fixture/breaks/index.ts';
import { buildProgram } from '../pipeline/cli.ts';
import { REPO_ROOT, TOKENIZER_NAMES } from '../pipeline/constants.ts';
import { FORMATS as COMPLY_FORMATS } from '../pipeline/comply/render/index.ts';

/** A backticked id: lower-case word characters only (no path, flag, placeholder or sentence). */
const WORD_ID = /^[a-z][a-z0-9_]*$/;
/** A backticked preset name may carry dashes. */
const DASHED_ID = /^[a-z][a-z0-9_-]*$/;

interface ListSpec {
  kind: 'list';
  page: string;
  what: string;
  /** the span: from the first `from` to the next `to` after it ('' = the start, the end) */
  from: string;
  to: string;
  /** the ids the span names */
  named: (span: string) => string[];
  registry: () => readonly string[];
  /** the order is the registry's too */
  ordered?: true;
}
interface CountSpec {
  kind: 'count';
  page: string;
  what: string;
  /** each capture group is one count, in the order of `registry()` */
  pattern: RegExp;
  registry: () => readonly number[];
}
/** A numbered list (`1 ready · 2 discover …`): the names in order must be the registry's, numbered from 1. */
interface NumberedSpec {
  kind: 'numbered';
  page: string;
  what: string;
  from: string;
  to: string;
  registry: () => readonly string[];
}
type Spec = ListSpec | CountSpec | NumberedSpec;

/** `N name` at a line start or after a `·`. */
function numbered(span: string): Array<[number, string]> {
  return [...span.matchAll(/(?:^|·)\s*(\d+) ([a-z]+)\b/gm)].map((m) => [Number(m[1]), m[2]]);
}

/** Every backticked span's text, filtered by `id`. */
function backticked(id: RegExp): (span: string) => string[] {
  return (span) => [...span.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter((t) => id.test(t));
}
/** Single-quoted alternatives of a TypeScript union inside the span (`'a'|'b'`). */
function quoted(span: string): string[] {
  return [...span.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}
/** The first column of a markdown table, backticked. */
function firstColumn(span: string): string[] {
  return span
    .split('\n')
    .map((l) => /^\|\s*`([^`]+)`\s*\|/.exec(l)?.[1])
    .filter((x): x is string => x !== undefined);
}
/** `--system` SPEC forms: `kind` or `kind:…` (not a URL such as `http://…`). */
function systemKinds(span: string): string[] {
  return [...span.matchAll(/`([^`]+)`/g)]
    .map((m) => /^([a-z]+)(?::(?!\/\/)[^`]*)?$/.exec(m[1])?.[1])
    .filter((x): x is string => x !== undefined);
}
/** Words separated by `,` `;` or `|` (prose lists such as `(caveats, headlines; …)`, `a | b`); a parenthesised remark is not a word. */
function words(span: string): string[] {
  return span
    .replace(/\([^()]*\)/g, '')
    .split(/[,;|]/)
    .map((w) => w.trim())
    .filter((w) => /^[a-z][a-z0-9_-]*$/.test(w));
}
/** The ids of the sections pipeline/report/ owns (the ones that read report data only): its face's `*Section` exports. */
function reportSectionIds(): string[] {
  return Object.entries(reportFace)
    .filter(([name]) => name.endsWith('Section'))
    .map(([, s]) => (s as { id: string }).id);
}
/** The schema parts: one file each in pipeline/report/types/. */
function reportTypeParts(): string[] {
  return readdirSync(join(REPO_ROOT, 'pipeline', 'report', 'types'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => f.slice(0, -3));
}
/** The break knobs proper (not the two modes of the break path); test/fixture/conformance.test.ts holds the knob table to them. */
function breakKnobs(): string[] {
  return Object.keys(KNOBS).filter((k) => k !== 'none' && k !== 'per-request');
}
/** The "both" rows of the knob table of docs/conformance.md (the knobs the conformance suite catches too). */
function suiteCaughtKnobs(): number {
  return [...page('docs/conformance.md').matchAll(/^\| `[a-z0-9-]+` \| [^|]+ \| [^|]* \| both \|$/gm)].length;
}
/** `a` < `b`/`c` < …: one entry per layer, its backticked nodes joined by '+'. */
function layerGroups(span: string): string[] {
  return span
    .split('<')
    .map((g) => [...g.matchAll(/`([^`]+)`/g)].map((m) => m[1]).join('+'))
    .filter(Boolean);
}
/** docs/layers.json, bottom first, in the form of layerGroups. */
function layersJson(): string[] {
  const doc = JSON.parse(page('docs/layers.json')) as { layers: Array<{ nodes: string[] }> };
  return doc.layers.map((l) => l.nodes.join('+'));
}
/** The folders of pipeline/ (one per stage). */
function pipelineFolders(): string[] {
  return readdirSync(join(REPO_ROOT, 'pipeline')).filter((f) => statSync(join(REPO_ROOT, 'pipeline', f)).isDirectory());
}
/** Step names written as words in prose: every registry name must appear as a whole word. */
function wordsOf(names: () => readonly string[]): (span: string) => string[] {
  return (span) => names().filter((n) => new RegExp(`(^|[^\\w-])${n}([^\\w-]|$)`).test(span));
}

const LISTS: readonly Spec[] = [
  {
    kind: 'list',
    page: 'docs/architecture.md',
    what: 'layers',
    from: 'goes down this order: ',
    to: '. `test/architecture.test.ts`',
    named: layerGroups,
    registry: layersJson,
    ordered: true,
  },
  {
    kind: 'list',
    page: 'docs/development.md',
    what: 'pipeline folders',
    from: 'one folder per stage, each with a README',
    to: '; `sections.ts`',
    named: backticked(WORD_ID),
    registry: pipelineFolders,
  },
  {
    kind: 'list',
    page: 'arms/README.md',
    what: 'listing arms',
    from: 'listing arms (tool DEFINITIONS',
    to: 'Contract `Arm`',
    named: backticked(WORD_ID),
    registry: () => ARMS,
  },
  {
    kind: 'list',
    page: 'arms/README.md',
    what: 'result arms',
    from: "result arms (a tool call's OUTPUT value)",
    to: 'Contract `ResultArm`',
    named: backticked(WORD_ID),
    registry: () => RESULT_ARMS,
  },
  {
    kind: 'list',
    page: 'docs/bench.md',
    what: 'listing arms',
    from: 'every encoding **arm** (',
    to: 'when `@tscg/core`',
    named: backticked(WORD_ID),
    registry: () => ARMS,
  },
  {
    kind: 'list',
    page: 'docs/bench.md',
    what: 'result arms',
    from: 'every **result arm** (',
    to: '), checks',
    named: backticked(WORD_ID),
    registry: () => RESULT_ARMS,
  },
  {
    kind: 'list',
    page: 'docs/tool-results.md',
    what: 'result arms',
    from: '**Result arms** (`arms/result/`):',
    to: 'Each also decodes',
    named: backticked(WORD_ID),
    registry: () => RESULT_ARMS,
  },
  {
    kind: 'list',
    page: 'docs/architecture.md',
    what: 'result arms',
    from: 'arms that render tool-call OUTPUT values (',
    to: '); contract',
    named: backticked(WORD_ID),
    registry: () => RESULT_ARMS,
  },
  {
    // hand-written in pipeline/cli/bench.ts: reading the registry would load the encoders on --help
    kind: 'list',
    page: 'help: bench --result-fixtures',
    what: 'result arms',
    from: 'for the result arms (',
    to: ');',
    named: words,
    registry: () => RESULT_ARMS,
  },
  {
    kind: 'list',
    page: 'help: comply --format',
    what: 'comply output formats',
    from: '',
    to: '',
    named: words,
    registry: () => Object.keys(COMPLY_FORMATS),
  },
  {
    kind: 'list',
    page: 'docs/comply.md',
    what: 'comply output formats',
    from: '- **Outputs.** ',
    to: '. `mcpgauge bench --comply',
    named: words,
    registry: () => Object.keys(COMPLY_FORMATS),
  },
  {
    kind: 'list',
    page: 'docs/bench.md',
    what: 'tokenizers',
    from: '- counts tokens with the',
    to: 'side by side',
    named: backticked(WORD_ID),
    registry: () => TOKENIZER_NAMES,
  },
  {
    kind: 'list',
    page: 'docs/architecture.md',
    what: 'corpus formats of loadCorpus',
    from: '`loadCorpus(path, {format?:',
    to: '}',
    named: quoted,
    registry: () => CORPUS_FORMATS,
  },
  {
    kind: 'list',
    page: 'pipeline/corpus/README.md',
    what: 'corpus format table',
    from: '| format ',
    to: '\n\n',
    named: firstColumn,
    registry: () => CORPUS_FORMAT_LIST.map((f) => f.format),
  },
  {
    kind: 'list',
    page: 'docs/bench.md',
    what: 'retrievers',
    from: '**retriever** of `pipeline/retrieval/registry.ts` (',
    to: 'see [retrievers.md]',
    named: backticked(WORD_ID),
    registry: retrieverIds,
  },
  {
    kind: 'list',
    page: 'pipeline/retrieval/README.md',
    what: 'retriever table',
    from: '| id ',
    to: '\n\n',
    named: firstColumn,
    registry: retrieverIds,
  },
  {
    kind: 'count',
    page: 'docs/gate.md',
    what: 'gate steps per cell',
    pattern: /In every cell (\d+) steps run/,
    registry: () => [STEP_NAMES.length],
  },
  {
    kind: 'list',
    page: 'docs/gate.md',
    what: 'gate steps per cell',
    from: 'In every cell',
    to: 'makes a step advisory',
    named: wordsOf(() => STEP_NAMES),
    registry: () => STEP_NAMES,
  },
  {
    kind: 'numbered',
    page: 'pipeline/gate/README.md',
    what: 'numbered gate steps',
    from: 'three defects shows three red steps.',
    to: 'Status per step',
    registry: () => STEP_NAMES,
  },
  {
    kind: 'count',
    page: 'docs/gate.md',
    what: 'step numbers in the summary.md examples (a step mark says its order)',
    pattern: /`⛔ step (\d+) kill:[^`]*`,\s*`⏭️ step (\d+) regression:/,
    registry: () => [STEP_NAMES.indexOf('kill') + 1, STEP_NAMES.indexOf('regression') + 1],
  },
  {
    kind: 'list',
    page: 'docs/gate.md',
    what: 'presets',
    from: 'adapter options, API-key header, default limit):',
    to: 'Any other proxy',
    named: backticked(DASHED_ID),
    registry: presetNames,
  },
  {
    kind: 'list',
    page: 'docs/systems.md',
    what: '--system kinds',
    from: '`--system NAME=SPEC` (repeatable',
    to: 'adapter flags',
    named: systemKinds,
    registry: () => SYSTEM_KINDS.map((k) => k.kind),
  },
  {
    kind: 'list',
    page: 'pipeline/systems/README.md',
    what: '--system SPEC table',
    from: '| SPEC ',
    to: '\n\n',
    named: (span) => firstColumn(span).map((c) => /^[a-z]+/.exec(c)![0]),
    registry: () => SYSTEM_KINDS.map((k) => k.kind),
  },
  {
    kind: 'list',
    page: 'pipeline/report/README.md',
    what: 'sections of report/sections/',
    from: '- `sections/`: the sections that read report data only (',
    to: '`common.ts`',
    named: words,
    registry: reportSectionIds,
  },
  {
    kind: 'list',
    page: 'pipeline/report/README.md',
    what: 'report type parts',
    from: 'one file per\n  schema part under `types/` (',
    to: '), imports',
    named: backticked(DASHED_ID),
    registry: reportTypeParts,
  },
  {
    kind: 'list',
    page: 'pipeline/report/types/README.md',
    what: 'report type parts',
    from: 'one file per `$defs` group (',
    to: '). `../types.ts`',
    named: backticked(DASHED_ID),
    registry: reportTypeParts,
  },
  {
    kind: 'count',
    page: 'docs/conformance.md',
    what: 'knobs the suite catches, of all knobs',
    pattern: /the suite catches \*\*(\d+)\*\* of the (\d+) knobs, `comply` all (\d+)/,
    registry: () => [suiteCaughtKnobs(), breakKnobs().length, breakKnobs().length],
  },
  {
    kind: 'count',
    page: 'docs/comply.md',
    what: 'checks per revision',
    pattern: /has (\d+) checks for 2025-11-25 and (\d+) for\s+2026-07-28/,
    registry: () => [catalogFor('2025-11-25').length, catalogFor('2026-07-28').length],
  },
];

/** A help text is named `help: <command> <--flag>`: that option's description in the real CLI program. */
function helpText(p: string): string {
  const [, command, flag] = /^help: (\S+) (--\S+)$/.exec(p)!;
  const cmd = buildProgram().commands.find((c) => c.name() === command);
  const opt = cmd?.options.find((o) => o.long === flag);
  assert.ok(opt, `${p}: no such command option`);
  return opt.description;
}

const pages = new Map<string, string>();
function page(p: string): string {
  if (!pages.has(p)) pages.set(p, p.startsWith('help: ') ? helpText(p) : readFileSync(join(REPO_ROOT, p), 'utf8'));
  return pages.get(p)!;
}

function spanOf(text: string, s: ListSpec | NumberedSpec): string | undefined {
  const i = text.indexOf(s.from);
  if (i < 0) return undefined;
  const j = s.to === '' ? text.length : text.indexOf(s.to, i + s.from.length);
  return j < 0 ? undefined : text.slice(i + s.from.length, j);
}

/** What is wrong with one list or count in `text` (empty = it matches its registry). */
function problems(text: string, s: Spec): string[] {
  const where = `${s.page}: ${s.what}`;
  if (s.kind === 'count') {
    const m = s.pattern.exec(text);
    if (!m) return [`${where}: text ${s.pattern} not found (reworded? update test/docs-lists.test.ts)`];
    const want = s.registry();
    return want.flatMap((n, k) => (Number(m[k + 1]) === n ? [] : [`${where}: says ${m[k + 1]}, the registry has ${n}`]));
  }
  const span = spanOf(text, s);
  if (span === undefined) return [`${where}: span "${s.from}" … "${s.to}" not found (reworded? update test/docs-lists.test.ts)`];
  if (s.kind === 'numbered') {
    const got = numbered(span);
    const want = s.registry();
    const names = got.map(([, n]) => n);
    const out: string[] = [];
    if (names.join(' ') !== want.join(' ')) out.push(`${where}: lists ${names.join(' ')}; the registry, in order: ${want.join(' ')}`);
    const misnumbered = got.filter(([n], i) => n !== i + 1).map(([n, name]) => `${n} ${name}`);
    if (misnumbered.length) out.push(`${where}: not numbered 1, 2, …: ${misnumbered.join(', ')}`);
    return out;
  }
  const named = new Set(s.named(span));
  const want = new Set(s.registry());
  const missing = [...want].filter((id) => !named.has(id));
  const unknown = [...named].filter((id) => !want.has(id));
  const order = s.ordered ? s.named(span).join(' < ') : '';
  const wantOrder = s.ordered ? s.registry().join(' < ') : '';
  return [
    ...(missing.length ? [`${where}: missing ${missing.join(', ')}`] : []),
    ...(unknown.length ? [`${where}: not in the registry: ${unknown.join(', ')}`] : []),
    ...(!missing.length && !unknown.length && order !== wantOrder ? [`${where}: order ${order}, the registry's ${wantOrder}`] : []),
  ];
}

/** The page text with one wrong entry planted into the list or count of `s`: one text per count of a count spec. */
function planted(text: string, s: Spec): string[] {
  if (s.kind === 'count') {
    const m = new RegExp(s.pattern.source, `${s.pattern.flags}d`).exec(text)!;
    return m.slice(1).map((n, k) => {
      const [at, end] = m.indices![k + 1]!;
      return text.slice(0, at) + String(Number(n) + 1) + text.slice(end);
    });
  }
  if (s.kind === 'numbered') {
    // renumber the second entry (a misnumbered list) and rename the third (a wrong step)
    const start = text.indexOf(s.from) + s.from.length;
    const span = spanOf(text, s)!;
    const [, second] = numbered(span)[1];
    const [, third] = numbered(span)[2];
    const a = span.replace(new RegExp(`\\b2 ${second}\\b`), `7 ${second}`);
    const b = span.replace(new RegExp(`\\b3 ${third}\\b`), '3 zzplanted');
    return [a, b].map((sp) => text.slice(0, start) + sp + text.slice(start + span.length));
  }
  // replace the first registry id named in the span by a made-up one (it is then missing, and the
  // made-up one unknown where the span reads backticks or quotes); an ordered list also gets its
  // first two entries swapped
  const start = text.indexOf(s.from) + s.from.length;
  const span = spanOf(text, s)!;
  const at = (id: string) => span.search(new RegExp(`(?<![\\w.-])${id.replace(/[.+]/g, '\\$&')}(?![\\w-])`));
  const [first, second] = s.named(span).filter((id) => at(id) >= 0);
  assert.ok(first, `${s.page}: ${s.what}: cannot plant`);
  const replaced = (sp: string) => text.slice(0, start) + sp + text.slice(start + span.length);
  const out = [replaced(span.slice(0, at(first)) + 'zz_planted' + span.slice(at(first) + first.length))];
  if (s.ordered) {
    assert.ok(second, `${s.page}: ${s.what}: cannot swap`);
    const [i, j] = [at(first), at(second)];
    out.push(replaced(span.slice(0, i) + second + span.slice(i + first.length, j) + first + span.slice(j + second.length)));
  }
  return out;
}

test('every list and count of a registry in the docs equals the registry', () => {
  const found = LISTS.flatMap((s) => problems(page(s.page), s));
  assert.deepEqual(found, [], 'a doc restates a registry that has changed: update the doc text');
});

test('a wrong entry planted into each list and count is reported (every check can fail)', () => {
  for (const s of LISTS) {
    for (const [k, text] of planted(page(s.page), s).entries()) {
      const found = problems(text, s);
      assert.ok(found.length > 0, `${s.page}: ${s.what}: a wrong entry planted (${k + 1}) went unnoticed`);
      if (s.kind === 'list' && k === 0)
        assert.match(found.join('\n'), /missing /, `${s.page}: ${s.what}: the replaced id is not reported missing`);
    }
  }
});

test('the registries are not empty (a list read as empty would match an empty span)', () => {
  for (const s of LISTS) assert.ok(s.registry().length > 0, `${s.page}: ${s.what}: empty registry`);
});
