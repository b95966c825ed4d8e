import { Option, type Command } from 'commander';
import { DEFAULT_RETRIEVER_ID, retrieverIds } from '../retrieval/index.ts';
import { UserError } from '../types.ts';
import { termLine } from '../util/escape.ts';
import { assertPortFree, parsePort } from '../util/port.ts';
import { EMBED_FLAGS, embedOptionsFromFlags } from './embed-flags.ts';
import type { ProxyHandle } from '../proxy/index.ts';

/** Registers `mcpgauge proxy`: the reference discovery proxy (see pipeline/proxy/README.md). */
export function register(program: Command): void {
  program
    .command('proxy')
    .description(
      `Run the reference discovery proxy: retrieve_tools/call_tool (${DEFAULT_RETRIEVER_ID} by default, --retriever) over the upstream MCP servers in a config file. Exit 0 at the end of stdin (stdio), 130/143 stopped by SIGINT/SIGTERM, 2 could not run as asked (bad flag, config, port in use)`,
    )
    .requiredOption('--config <file>', 'proxy config JSON (servers, listen, api_key, call_timeout_ms, ...)')
    .option('--transport <t>', 'serve MCP over "http" (streamable HTTP at /mcp) or "stdio"', 'http')
    .option('--host <addr>', 'HTTP bind address (default: config listen.host, 127.0.0.1)')
    .option('--port <n>', 'HTTP port, 0 = a free port (default: config listen.port, 8092)')
    .addOption(
      new Option(
        '--retriever <id>',
        `retriever behind retrieve_tools (pipeline/retrieval/registry.ts; default: the config's "retriever", else ${DEFAULT_RETRIEVER_ID})`,
      ).choices(retrieverIds()),
    )
    .addOption(EMBED_FLAGS[0])
    .addOption(EMBED_FLAGS[1])
    .option('--api-key <key>', 'API key HTTP clients must send (X-API-Key or Authorization: Bearer); also MCPGAUGE_PROXY_API_KEY')
    .action(
      async (o: {
        config: string;
        transport: string;
        host?: string;
        port?: string;
        apiKey?: string;
        retriever?: string;
        embedUrl?: string;
        embedModel?: string;
      }) => {
        // started by the gate (MCPGAUGE_PARENT_PID): exit at once when the gate is gone, also while
        // it loads and its upstreams start, and take the stdio upstreams along (they are in this
        // process group when the gate started it in its own; a clean close first would let an
        // upstream exit and be started again)
        const { endOwnGroup, watchParent } = await import('../util/proc.ts');
        watchParent(() => {
          endOwnGroup();
          process.exit(1);
        });
        // flags, config and port are checked before anything starts (exit 2, one line)
        if (o.transport !== 'http' && o.transport !== 'stdio') {
          throw new UserError(`--transport must be "http" or "stdio", got ${JSON.stringify(o.transport)}`, 2);
        }
        const port = o.port === undefined ? undefined : parsePort(o.port, '--port');
        // loaded here so other subcommands do not pay for the MCP SDK server at start-up
        const { loadProxyConfig, startProxy } = await import('../proxy/index.ts');
        const config = loadProxyConfig(o.config);
        if (o.transport === 'http') {
          await assertPortFree(
            o.host ?? config.listen.host,
            port ?? config.listen.port,
            o.port === undefined ? `${o.config}: listen.port` : '--port',
            o.host === undefined ? `${o.config}: listen.host` : '--host',
          );
        }
        const log = (msg: string) => process.stderr.write(`mcpgauge proxy: ${termLine(msg)}\n`);
        // The proxy must outlive any failure in its own asynchronous paths: log, never crash.
        process.on('unhandledRejection', (e) => log(`unhandled rejection: ${(e as Error)?.stack ?? String(e)}`));
        process.on('uncaughtException', (e) => log(`uncaught exception: ${e?.stack ?? String(e)}`));
        let handle: ProxyHandle | undefined;
        let stopping = false;
        const stop = async (code: number) => {
          if (stopping) return;
          stopping = true;
          await handle?.close().catch(() => {});
          process.exit(code);
        };
        handle = await startProxy(config, {
          transport: o.transport,
          port,
          host: o.host,
          apiKey: o.apiKey,
          retriever: o.retriever,
          retrieverOptions: embedOptionsFromFlags(o),
          log,
          onStdinEnd: () => void stop(0),
        });
        if (handle.transport === 'http') process.stderr.write(`listening on ${handle.url}\n`);
        else log('serving MCP on stdio');
        process.once('SIGINT', () => void stop(130));
        process.once('SIGTERM', () => void stop(143));
        // Keep running until a signal (HTTP) or the end of stdin (stdio).
        await new Promise<never>(() => {});
      },
    );
}
