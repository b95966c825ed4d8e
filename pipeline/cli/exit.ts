/**
 * The exit-code contract of every command, in one place (README "Exit codes"):
 * 0 ran and passed, 1 ran and found a failure (a command says so through `process.exitCode`),
 * 2 could not run as asked. Anything thrown out of a command is 2: a usage error, a bad flag
 * value, a port in use, an output path that cannot be written, a file that cannot be read.
 * A usage error is one line naming the flag or value, plus one line pointing at `--help`;
 * never the whole help text after an error.
 *
 * `pipeline/cli.ts`, `cli/fixture-entry.ts` and `cli/proxy-entry.ts` all run their program
 * through `runProgram`, so `mcpgauge`, `mcpfixture` and the proxy entry keep the same contract.
 */
import { Command, CommanderError, type HelpContext } from 'commander';
import { VERSION } from '../constants.ts';
import { termLine } from '../util/escape.ts';

/** Exit code for "could not run as asked". */
export const EXIT_USAGE = 2;

/** A command whose help is never printed after an error: a missing subcommand is a usage error too. */
export class CliCommand extends Command {
  override createCommand(name?: string): CliCommand {
    return new CliCommand(name);
  }

  override help(context?: HelpContext): never;
  override help(cb?: (str: string) => string): never;
  override help(context?: HelpContext | ((str: string) => string)): never {
    // commander calls help({ error: true }) for a bare group (`mcpgauge`, `mcpgauge corpus`)
    if (context && typeof context === 'object' && context.error) {
      const names = this.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden).map((c) => c.name());
      // `mcpgauge help nope` lands here too, with the unknown name as the last word
      const asked = this.args[0] === 'help' && this.args.length > 1 ? this.args[this.args.length - 1] : undefined;
      const what = asked === undefined ? 'missing command' : `unknown command ${JSON.stringify(asked)}`;
      this.error(`${what} (one of: ${names.join(', ')})`, { exitCode: EXIT_USAGE, code: 'mcpgauge.missingCommand' });
    }
    return super.help(context as HelpContext);
  }
}

/** "mcpgauge corpus info": the words a user types to reach `cmd`. */
function commandPath(cmd: Command): string {
  const words: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) words.unshift(c.name());
  return words.join(' ');
}

/** commander's "error: unknown option '--x'\n(Did you mean --y?)\n" -> one line. */
export function oneLine(text: string): string {
  return text
    .replace(/^error: /, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => l.replace(/^\(Did you mean (.*)\)$/, '(did you mean $1)'))
    .join(' ');
}

/**
 * Applies the contract to `cmd` and every command below it: errors are thrown (never
 * process.exit), written as one line + a pointer to `--help`, and every command answers
 * `--version` (except one that owns a `--version <v>` option itself, e.g. `corpus freeze`).
 */
export function applyContract(cmd: Command): Command {
  const path = commandPath(cmd);
  cmd.exitOverride();
  cmd.showHelpAfterError(false);
  cmd.configureOutput({
    outputError: (str, write) => write(`${path}: ${oneLine(str)}\nRun "${path} --help" for usage.\n`),
  });
  if (cmd.version() === undefined && !cmd.options.some((o) => o.long === '--version' || o.short === '-V')) cmd.version(VERSION);
  for (const sub of cmd.commands) applyContract(sub);
  return cmd;
}

/** The exit code for something thrown out of a command (or out of commander). */
export function exitCodeOf(e: unknown): number {
  // --help and --version end the parse with a CommanderError of code 0
  if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT_USAGE;
  return EXIT_USAGE;
}

/**
 * Parses and runs `program` (argv as process.argv: node, script, words...). A command's own
 * verdict stays in process.exitCode; anything thrown becomes one line on stderr and exit 2.
 */
export async function runProgram(program: Command, argv: string[], prefix = 'mcpgauge'): Promise<void> {
  applyContract(program);
  try {
    await program.parseAsync(argv);
  } catch (e) {
    process.exitCode = exitCodeOf(e);
    // commander has written its one line already
    if (e instanceof CommanderError) return;
    const msg = (e as Error)?.message ?? String(e);
    // the message may carry text from a system under test: one terminal-safe line
    process.stderr.write(`${prefix}: ${termLine(msg.split('\n')[0])}\n`);
    if (process.env.MCPGAUGE_DEBUG) process.stderr.write(`${(e as Error)?.stack}\n`);
  }
}
