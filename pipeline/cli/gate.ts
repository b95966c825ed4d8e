import type { Command } from 'commander';
import { UserError } from '../types.ts';
import { termLine } from '../util/escape.ts';
import { MODERN_REVISION } from '../mcp/protocol.ts';
import { presetNames } from '../adapter/preset-names.ts';
import { addFragmentOptions, registerMerge, runFragmentCli } from './gate-merge.ts';

/** the adapter options (same names as the live stage's) */
const ADAPTER_FLAGS = [
  ['--style <style>', 'proxy style: auto | discovery | passthrough', 'auto'],
  ['--discovery-tool <name>', 'name of the discovery (search) tool', 'retrieve_tools'],
  ['--query-arg <name>', "the discovery tool's query argument", 'query'],
  ['--limit-arg <name>', "the discovery tool's limit argument ('none' = do not send one)", 'limit'],
  ['--detail-arg <name>', "the discovery tool's detail argument ('none' = it has none)", 'detail'],
  ['--call-tool <name>', 'discovery style: the tool that runs an upstream tool', 'call_tool'],
  ['--call-name-arg <name>', "the call tool's argument naming the upstream tool", 'name'],
  ['--call-args-arg <name>', "the call tool's argument carrying the arguments", 'arguments'],
  ['--tool-map <file>', 'JSON {"server:tool": "proxy tool name"} for proxies that rename tools'],
] as const;

/** the gate run options: config, cell subset, parallelism, flakiness, repeats, baseline and output folder */
function addRunOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'gate config (JSON, schema datasets/schemas/gate.config.schema.json)', 'gate.config.json')
    .option('--cells <list>', 'comma-separated subset of the config cells (default: all of them)')
    .option('--jobs <n>', 'cells in parallel (default: config jobs, 0 = number of cores)')
    .option(
      '--allow-flaky',
      'a cell that passed only on its retry (with --repeat: a step that passed in some runs, at or above its min_pass_rate) counts as green',
    )
    .option(
      '--repeat <n>',
      'run every cell n times in sequence (no retries) and report each step as passes/n with a Wilson 95% interval (default 1)',
    )
    .option('--baseline <file>', 'stored gate report or bench report to compare tokens, recall@5 and latency p95 with')
    .option('--out <dir>', 'output folder', 'results/gate');
}

/** the proxy under test: how it is started or reached, what it fronts, and the protocol era spoken to it */
function addProxyOptions(cmd: Command): Command {
  return cmd
    .option(
      '--proxy-cmd <template>',
      'proxy under test: command template ({FIXTURE_CMD} {FIXTURE_URL} {FIXTURE_ARGS_JSON} {SERVERS_JSON} {PORT} {API_KEY} {CONFIG_FILE} ...)',
    )
    .option('--proxy-config-template <file>', 'config template filled per cell and written to {CONFIG_FILE}')
    .option('--proxy-url <url>', 'a proxy that is already running (its upstreams must be the cell fixtures: for experiments only)')
    .option('--api-key <key>', 'API key for --proxy-url')
    .option('--preset <name>', `proxy under test from datasets/presets/<name>.json (${presetNames().join(', ')})`)
    .option(
      '--proxy-transport <t>',
      'how the proxy under test is spoken to: auto | streamable-http | sse | stdio (the live stage calls it --transport)',
    )
    .option('--proxy-endpoint <template>', 'URL template or path of the served proxy (default /mcp, /sse for sse)')
    .option(
      '--fronts <list>',
      'fixture transports the proxy fronts, e.g. stdio or stdio,sse; ":1" = one upstream per instance (other cells: not_applicable)',
    )
    .option('--client-protocol <era>', `protocol the gate speaks to the proxy: legacy | ${MODERN_REVISION}`, 'legacy');
}

/** network cells, fixture grading, the environment passed through, and progress verbosity */
function addFixtureOptions(cmd: Command): Command {
  return cmd
    .option(
      '--network',
      'also run the network cells: the fixture behind toxiproxy (built once with go install into the cache), one step per network fault (default: config network.enabled)',
    )
    .option('--no-fixture-grade', 'do not grade the fixture itself (once per run, with the compliance prober) before the cells')
    .option(
      '--pass-env <name>',
      "pass this variable of the gate's environment to the proxy and fixtures (repeatable; they get PATH, HOME, locale and TMPDIR otherwise; a secret-looking name is scrubbed from every artifact)",
      (v: string, acc: string[]) => [...acc, v],
      [] as string[],
    )
    .option('--verbose', 'a progress line per finished step (one per finished cell always)');
}

/** the adapter options (ADAPTER_FLAGS), in their order */
function addAdapterOptions(cmd: Command): Command {
  for (const [f, d, def] of ADAPTER_FLAGS) cmd.option(f, d, def);
  return cmd;
}

/** Registers `mcpgauge gate`: the release gate (see pipeline/gate/README.md). */
export function register(program: Command): void {
  const cmd = program
    .command('gate')
    .description(
      'Release gate: try to break a proxy build (fixture transport x protocol era matrix); exit 0 green, 1 a check failed, 2 could not run as asked (usage, config, output folder, harness error, nothing evaluated), 130/143 interrupted',
    );
  addRunOptions(cmd);
  addProxyOptions(cmd);
  addFixtureOptions(cmd);
  addAdapterOptions(cmd);
  // fragments of a gate spread over CI jobs, and their merge (options of `gate` before `merge`)
  addFragmentOptions(cmd);
  cmd.enablePositionalOptions();
  registerMerge(cmd);
  cmd.action(async (o: Record<string, string | boolean | undefined>) => {
    const { runGate } = await import('../gate/matrix.ts');
    const { verdictWord, countsText } = await import('../gate/assemble.ts');
    const { adapterOptionsFromFlags, parseTransport } = await import('../adapter/index.ts');
    const fail2 = (m: string) => new UserError(m, 2);
    let jobs: number | undefined;
    if (o.jobs !== undefined) {
      if (!/^\d+$/.test(String(o.jobs))) throw fail2(`--jobs must be an integer >= 0 (0 = number of cores), got ${JSON.stringify(o.jobs)}`);
      jobs = Number(o.jobs);
    }
    let repeat: number | undefined;
    if (o.repeat !== undefined) {
      if (!/^\d+$/.test(String(o.repeat)) || Number(o.repeat) < 1 || Number(o.repeat) > 100)
        throw fail2(`--repeat must be an integer from 1 to 100 (runs per cell), got ${JSON.stringify(o.repeat)}`);
      repeat = Number(o.repeat);
    }
    const proto = String(o.clientProtocol);
    if (proto !== 'legacy' && proto !== MODERN_REVISION)
      throw fail2(`--client-protocol must be legacy or ${MODERN_REVISION}, got ${JSON.stringify(proto)}`);
    let adapter;
    try {
      adapter = adapterOptionsFromFlags(o as never);
    } catch (e) {
      throw fail2((e as Error).message);
    }
    // the contract: anything that stops the run before a verdict is exit 2 (a UserError of exit 1 included)
    const usage = (e: unknown) => (e instanceof UserError && e.exitCode !== 2 ? new UserError(e.message, 2) : e);
    const gateOpts = {
      passEnv: o.passEnv as unknown as string[],
      verbose: o.verbose === true,
      configFile: String(o.config),
      gradeFixture: o.fixtureGrade !== false,
      network: o.network === true ? true : undefined,
      cells:
        typeof o.cells === 'string'
          ? o.cells
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : undefined,
      jobs,
      allowFlaky: o.allowFlaky === true,
      repeat,
      baselineFile: o.baseline as string | undefined,
      outDir: String(o.out),
      proxyCmd: o.proxyCmd as string | undefined,
      proxyConfigTemplate: o.proxyConfigTemplate as string | undefined,
      proxyUrl: o.proxyUrl as string | undefined,
      apiKey: o.apiKey as string | undefined,
      preset: o.preset as string | undefined,
      proxyTransport: o.proxyTransport === undefined ? undefined : (parseTransport(o.proxyTransport, '--proxy-transport') as never),
      proxyEndpoint: o.proxyEndpoint as string | undefined,
      fronts: o.fronts as string | undefined,
      adapterExplicit: explicitAdapterKeys(cmd),
      adapter,
      clientProtocol: proto,
      // always on stderr (a CI log without a TTY shows life too): phases, one line per finished cell
      progress: (line: string) => process.stderr.write(`[gate ${new Date().toISOString().slice(11, 19)}] ${termLine(line)}\n`),
    } as const;
    if (o.fragment !== undefined)
      return runFragmentCli(cmd, gateOpts, o).catch((e) => {
        throw usage(e);
      });
    const run = await runGate(gateOpts).catch((e) => {
      throw usage(e);
    });
    const r = run.report;
    process.stdout.write(
      `gate ${verdictWord(r)}: ${countsText(r.counts)} in ${(r.timing.total_ms / 1000).toFixed(1)} s -> ${run.files.report}\n` +
        r.failures.map((f) => `  ${termLine(f)}\n`).join(''),
    );
    process.exitCode = run.exitCode;
  });
}

/** AdapterOptions keys the user set on the command line (they win over a preset's). */
function explicitAdapterKeys(cmd: Command): Set<string> {
  const out = new Set<string>();
  for (const k of ['style', 'discoveryTool', 'queryArg', 'limitArg', 'detailArg', 'callTool', 'callNameArg', 'callArgsArg'])
    if (cmd.getOptionValueSource(k) === 'cli') out.add(k);
  return out;
}
