import { Option, type Command } from 'commander';
import { LEGACY_REVISION, MODERN_REVISION } from '../mcp/protocol.ts';

const collect = (v: string, prev: string[] = []) => [...prev, v];

/** Registers `mcpgauge comply <target>` (and `mcpgauge comply benchmark <target>`). */
export function register(program: Command): void {
  program
    .command('comply')
    .description(
      `Grade an MCP server against the spec (${LEGACY_REVISION} and ${MODERN_REVISION}): A-F per revision, reason-coded results. ` +
        'Target: an http(s) URL, or -- followed by a stdio server command. `comply benchmark <target>` measures latency instead. ' +
        'Exit 0 graded at or above the bar, 1 below it (--strict, --min-grade), 2 could not run as asked (bad flag, an --out path that cannot be written, nothing gradable).',
    )
    .argument('[target...]', 'URL, or the stdio command and its arguments (after --)')
    .addOption(new Option('--spec-version <v>', `auto | ${LEGACY_REVISION} | ${MODERN_REVISION}`).default('auto'))
    .addOption(new Option('--format <f>', 'terminal | json | sarif | junit | markdown | html').default('terminal'))
    .option('--out <list>', 'write several formats from one run: json=FILE,sarif=FILE,...')
    .option('--strict', 'exit 1 when any required (MUST) check fails', false)
    .option('--no-cap', 'report the plain weighted letter (by default a failing MUST caps the letter at B, two or more at C)')
    .option('--min-grade <g>', 'exit 1 when a run grades below A|B|C|D|F (or has no grade)')
    .option('--only <ids>', 'only these check ids or categories (comma-separated)')
    .option('--skip <ids>', 'skip these check ids or categories')
    .option('--list', 'list the checks that would run, without connecting', false)
    .option('--verbose', 'list every check result', false)
    .option('-H, --header <h>', 'HTTP header "Name: value" (repeatable)', collect)
    .option('--auth <value>', 'Authorization header value, e.g. "Bearer …"')
    .option('-E, --env <kv>', 'stdio env KEY=VALUE (repeatable)', collect)
    .option('--env-file <path>', 'stdio env from a KEY=VALUE file')
    .option('--cwd <dir>', 'stdio working directory')
    .option('--timeout <ms>', 'per-request timeout', '10000')
    .option('--startup-timeout <ms>', 'budget for the first answer (era probe)', '15000')
    .option(
      '--no-invasive',
      'skip the probes that stress or attack the server: the 1 MiB argument, tool-input payloads (command, SQL, path, SSRF, undeclared arguments) and the 50-call burst',
    )
    .option('--record <file>', 'save every exchanged byte (request/response pairs) to FILE')
    .option('--replay <file>', 're-grade a recording offline (no target)')
    .option('--requests <n>', 'benchmark: requests per concurrency level', '200')
    // usage errors and anything thrown are exit 2 (cli/exit.ts), like a target with nothing gradable
    .action(async (target: string[], opts: Record<string, unknown>) => {
      const { runComplyCli } = await import('../comply/cli-run.ts');
      process.exitCode = await runComplyCli(target, opts);
    });
}
