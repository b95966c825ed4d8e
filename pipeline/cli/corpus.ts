import { Option, type Command } from 'commander';
import { UserError } from '../types.ts';
import { DATASETS_DIR } from '../constants.ts';
import { CORPUS_FORMATS } from '../corpus/load.ts';

function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n <= 0)
    throw new UserError(`${flag} ${JSON.stringify(v)}: expected a positive integer`);
  return n;
}

let pipeGuarded = false;
/** `mcpgauge corpus info x | head` must not crash with EPIPE when the reader goes away. */
function out(line: string): void {
  if (!pipeGuarded) {
    pipeGuarded = true;
    process.stdout.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  process.stdout.write(line + '\n');
}
const err = (line: string) => process.stderr.write(line + '\n');

/** Registers `mcpgauge corpus` (freeze, fetch, validate, info). */
export function register(program: Command): void {
  // `corpus freeze --version <v>` must reach the subcommand instead of printing the program
  // version: program options are recognised only before the subcommand name.
  program.enablePositionalOptions();
  const corpus = program
    .command('corpus')
    .description(
      'Corpora: freeze reference servers into a versioned file, fetch LiveMCPTool/ToolRet, validate and describe corpora and golden sets',
    );

  registerFreeze(corpus);
  registerFreezeResults(corpus);
  registerFetch(corpus);
  registerValidate(corpus);
  registerInfo(corpus);
}

function registerFreeze(corpus: Command): void {
  corpus
    .command('freeze')
    .description(
      'Boot the npm reference MCP servers (filesystem on a temp folder, memory, sequential-thinking, everything) over stdio, ' +
        'page through tools/list, canonicalize and write <out-dir>/<version>.tools.json. Never overwrites: a refresh is a new version.',
    )
    .option('--version <v>', 'corpus version, also the file name stem (e.g. corpus-npm4-v2)', 'corpus-npm4-v1')
    .option(
      '--next-version',
      'pick the next unused <stem>-vN in --out-dir (stem: corpus-npm4, or corpus-npm4-fixture with --with-fixture)',
      false,
    )
    .option('--out-dir <dir>', 'output folder (default: the repo datasets/)')
    .option('--with-fixture', "also freeze the project's fixture (server name fixture) via pipeline/fixture/launch.ts", false)
    .option('--timeout-ms <n>', 'timeout for connect and each tools/list page', '30000')
    .action(
      async (o: { version: string; nextVersion: boolean; outDir?: string; withFixture: boolean; timeoutMs: string }, cmd: Command) => {
        const { freezeCorpus, nextFreeVersion } = await import('../corpus/freeze.ts');
        const outDir = o.outDir ?? DATASETS_DIR;
        let version = o.version;
        if (o.nextVersion) {
          if (cmd.getOptionValueSource('version') === 'cli') throw new UserError('--version and --next-version are mutually exclusive');
          version = nextFreeVersion(outDir, o.withFixture ? 'corpus-npm4-fixture' : 'corpus-npm4');
        }
        const r = await freezeCorpus({
          version,
          outDir,
          withFixture: o.withFixture,
          timeoutMs: positiveInt('--timeout-ms', o.timeoutMs),
          log: err,
        });
        out(
          `froze ${r.version}: ${r.tool_count} tools from ${r.servers.map((s) => `${s.name} ${s.tool_count}`).join(', ')} -> ${r.path} (tools sha256 ${r.tools_sha256.slice(0, 16)}...)`,
        );
        for (const s of r.skipped) out(`skipped ${s}`);
      },
    );
}

function registerFreezeResults(corpus: Command): void {
  corpus
    .command('freeze-results')
    .description(
      'Boot the npm reference MCP servers and the fixture over stdio, run the result capture plan (pipeline/toolresults/plan.ts) on the shipped seed data ' +
        '(datasets/seeds/), and write <out-dir>/<version>.json: tool-call outputs with clock/host/path specifics stripped, each labelled tabular or non_tabular. Never overwrites.',
    )
    .option('--version <v>', 'fixture version, also the file name stem (e.g. results-reference-v2)')
    .option('--next-version', 'pick the next unused results-reference-vN in --out-dir (the default when --version is not given)', false)
    .option('--out-dir <dir>', 'output folder (default: the repo datasets/)')
    .option('--timeout-ms <n>', 'timeout for connect and each call', '30000')
    .action(async (o: { version?: string; nextVersion: boolean; outDir?: string; timeoutMs: string }) => {
      const { freezeResults } = await import('../toolresults/capture.ts');
      const { nextFreeVersion } = await import('../corpus/freeze.ts');
      const outDir = o.outDir ?? DATASETS_DIR;
      if (o.version !== undefined && o.nextVersion) throw new UserError('--version and --next-version are mutually exclusive');
      const version = o.version ?? nextFreeVersion(outDir, 'results-reference', '.json');
      const r = await freezeResults({ version, outDir, timeoutMs: positiveInt('--timeout-ms', o.timeoutMs), log: err });
      out(
        `froze ${r.version}: ${r.fixture_count} results (${r.tabular_count} tabular, ${r.non_tabular_count} non_tabular) -> ${r.path} (fixtures sha256 ${r.fixtures_sha256.slice(0, 16)}...)`,
      );
    });
}

function registerFetch(corpus: Command): void {
  corpus
    .command('fetch')
    .description(
      'Fetch LiveMCPTool (ICIP/LiveMCPBench@ddea2d24, tools/tools.json) and ToolRet (mangopy/ToolRet-Tools, ToolRet-Queries at pinned revisions) ' +
        'into the git-ignored cache, recording revision and sha256 in FETCH.json. --from DIR copies from an offline mirror instead ' +
        '(DIR/livemcptool/tools.json, DIR/toolret/{tools,queries}/). Env HF_ENDPOINT overrides the Hub URL.',
    )
    .option('--from <dir>', 'offline mirror folder (e.g. ../shared/datasets)')
    .option('--cache <dir>', 'cache folder (default: <repo>/.cache/corpora)')
    .addOption(new Option('--only <dataset...>', 'fetch only these datasets').choices(['livemcptool', 'toolret']))
    .option('--timeout-ms <n>', 'connect / idle timeout per request', '20000')
    .action(async (o: { from?: string; cache?: string; only?: Array<'livemcptool' | 'toolret'>; timeoutMs: string }) => {
      const { fetchCorpora } = await import('../corpus/fetch.ts');
      await fetchCorpora({
        from: o.from,
        cacheDir: o.cache,
        datasets: o.only,
        timeoutMs: positiveInt('--timeout-ms', o.timeoutMs),
        log: out,
      });
    });
}

function registerValidate(corpus: Command): void {
  corpus
    .command('validate')
    .description(
      'Load a corpus (any supported shape) and optionally validate a golden set against it; exit 0 valid, 2 with a one-line error naming file, JSON path and reason',
    )
    .argument('<path>', 'corpus file or ToolRet folder')
    .addOption(new Option('--format <f>', 'corpus shape').choices(CORPUS_FORMATS).default('auto'))
    .option('--golden <path>', 'golden set JSON (or a ToolRet folder) to validate against the corpus')
    .option('--allow-version-mismatch', 'accept a golden set whose corpus_version differs from the corpus version', false)
    .action(async (path: string, o: { format: 'auto'; golden?: string; allowVersionMismatch: boolean }) => {
      const { loadCorpus } = await import('../corpus/load.ts');
      const { loadGolden } = await import('../corpus/golden.ts');
      const c = await loadCorpus(path, { format: o.format });
      out(
        `ok: ${c.version} (${c.format}): ${c.tools.length} tools, ${new Set(c.tools.map((t) => t.server)).size} servers, ${c.tools.filter((t) => t.inputSchema !== undefined).length} with schema`,
      );
      if (o.golden) {
        const g = await loadGolden(o.golden, c, { allowCorpusVersionMismatch: o.allowVersionMismatch });
        const labels = g.queries.flatMap((q) => q.labels);
        const primary = new Set(g.queries.flatMap((q) => q.labels.filter((l) => l.relevance === 3).map((l) => l.tool_id)));
        out(
          `ok: golden ${g.version ?? o.golden}: ${g.queries.length} queries, ${labels.length} labels (${[3, 2, 1, 0].map((r) => `${r}: ${labels.filter((l) => l.relevance === r).length}`).join(', ')}), ` +
            `${primary.size}/${c.tools.length} tools primary somewhere`,
        );
      }
    });
}

function registerInfo(corpus: Command): void {
  corpus
    .command('info')
    .description('Describe a corpus: descriptor, tools per server and hygiene (degenerate descriptions, schema sizes, duplicate schemas)')
    .argument('<path>', 'corpus file or ToolRet folder')
    .addOption(new Option('--format <f>', 'corpus shape').choices(CORPUS_FORMATS).default('auto'))
    .option('--stub-pattern <regex...>', 'stub description patterns (default: ^Proxy for )')
    .option('--json', 'print the descriptor and hygiene as JSON', false)
    .action(async (path: string, o: { format: 'auto'; stubPattern?: string[]; json: boolean }) => {
      const { loadCorpus } = await import('../corpus/load.ts');
      const { corpusHygiene } = await import('../corpus/hygiene.ts');
      const c = await loadCorpus(path, { format: o.format });
      const h = corpusHygiene(c, { stubPatterns: o.stubPattern });
      const perServer = new Map<string, number>();
      for (const t of c.tools) perServer.set(t.server, (perServer.get(t.server) ?? 0) + 1);
      if (o.json) {
        const { tools: _tools, ...descriptor } = c;
        out(
          JSON.stringify({ corpus: descriptor, tool_count: c.tools.length, servers: Object.fromEntries(perServer), hygiene: h }, null, 2),
        );
        return;
      }
      const f = (v: number | null) => (v === null ? '-' : Number.isInteger(v) ? String(v) : v.toFixed(1));
      out(
        `${c.name} | version ${c.version} | format ${c.format} | license ${c.license} | ${c.committed ? 'committed' : 'not committed'} | ${c.source}`,
      );
      out(
        `${c.tools.length} tools on ${perServer.size} servers: ${[...perServer.entries()]
          .slice(0, 12)
          .map(([s, n]) => `${s} ${n}`)
          .join(', ')}${perServer.size > 12 ? ', ...' : ''}`,
      );
      const d = h.degenerate_descriptions;
      out(
        `degenerate descriptions: ${d.count} (${(d.fraction * 100).toFixed(1)}%): ${d.by_rule.map((r) => `${r.rule}: ${r.count}`).join('; ')}`,
      );
      for (const e of d.examples) out(`  ${e.tool_id}: ${JSON.stringify(e.description.slice(0, 60))}`);
      for (const [label, s] of [
        ['schema bytes', h.schema_bytes],
        ['schema properties', h.schema_properties],
      ] as const) {
        out(`${label}: n ${s.n}, mean ${f(s.mean)}, p50 ${f(s.p50)}, p95 ${f(s.p95)}, max ${f(s.max)}`);
      }
      const ds = h.duplicate_schemas;
      out(
        `duplicate schemas: ${ds.distinct} distinct of ${ds.tools_with_schema}; ${ds.tools_sharing} tools share one in ${ds.groups} groups${h.tools_without_schema ? `; ${h.tools_without_schema} tools without schema` : ''}`,
      );
      const { invalidUtf8Warning } = await import('../corpus/hygiene.ts');
      const utf8 = invalidUtf8Warning(c.id, h.invalid_utf8);
      if (utf8) out(utf8);
      for (const g of ds.largest)
        out(
          `  ${g.schema_sha256} (${g.bytes} bytes) x${g.tool_count}: ${g.tool_ids.slice(0, 4).join(', ')}${g.tool_count > 4 ? ', ...' : ''}`,
        );
    });
}
