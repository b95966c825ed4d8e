/**
 * The reference proxy's own program: the `proxy` subcommand of `mcpgauge` with the same flags
 * (`--max-input-mb` included, cli/max-input.ts) and the same exit contract (cli/exit.ts), without
 * the other subcommands. bin/mcpgauge.mjs runs it for `mcpgauge proxy …` from the proxy's own
 * bundle (dist/proxy-bundle/proxy.cjs, scripts/lib/bundle.mjs), so a proxy start never loads the
 * rest of the CLI and gets the MCP SDK bundled in; proxy-entry.ts is the same for `node proxy-entry`.
 */
import { runOneCommand } from './max-input.ts';
import { register } from './proxy.ts';

/** argv as process.argv: [node, script, 'proxy', ...flags] */
export const main = (argv: string[]): Promise<void> => runOneCommand(register, argv);
