import { Option, type Command } from 'commander';

/** Registers `mcpgauge fixture` (= `mcpfixture`): the deterministic, fault-injecting MCP server. */
export function register(program: Command): void {
  program
    .command('fixture')
    .description(
      'Run the deterministic, fault-injecting MCP test server (tools echo, ping, slow, large, fail, stats). ' +
        'Env (wins over flags): MCP_TRANSPORT, PORT, STATELESS, MCPFIXTURE_HOST, BACKEND_MODE=echo|barrier|hang|crash|roles, BARRIER_N, ' +
        'HANG_AFTER_N, CRASH_AFTER_N, BARRIER_TIMEOUT_SECONDS, FAULT_METHODS, MAX_BODY_BYTES; FIXTURE_BREAK=knob,... (break one behaviour), ' +
        'FIXTURE_AUTH_TOKEN, FIXTURE_TLS_CERT/FIXTURE_TLS_KEY, FIXTURE_FEATURES, FIXTURE_RATE_LIMIT. ' +
        'Exit 0 stopped (SIGTERM/SIGINT, end of stdin), 1 only when BACKEND_MODE=crash fires, 2 could not run as asked (bad flag or env value, port in use).',
    )
    .addOption(new Option('--transport <t>', 'stdio | streamable-http | http | sse').default('stdio'))
    .option('--port <n>', 'HTTP port (0 = any free port, printed on stderr)', '8080')
    .option('--host <addr>', 'bind address', '127.0.0.1')
    .addOption(new Option('--addr <addr>', 'alias of --host (mcpproxy mcpfixture)').hideHelp())
    .option('--stateless', 'streamable HTTP without sessions', false)
    .addOption(
      new Option('--compat <name>', 'echo contract: yardstick ({input} -> {output}) or mcpfixture ({echo: args})').default('yardstick'),
    )
    .option('--catalog <n>', 'add N deterministic catalog tools (synthetic, or sampled from --catalog-from)', '0')
    .option(
      '--catalog-from <file>',
      'sample the catalog from the real tool definitions of this corpus file (renamed to stay unique; without --catalog: every tool once)',
    )
    .option('--page-size <n>', 'tools per tools/list page (0 = one page)', '0')
    .option('--max-body-bytes <n>', 'HTTP request body limit (413 above)', String(4 * 1024 * 1024))
    .option('--max-sessions <n>', 'largest number of live stateful HTTP/SSE sessions; beyond it 503 + JSON-RPC error', '1000')
    .option('--session-idle-seconds <n>', 'close a stateful session after this many seconds without a request (0 = never)', '600')
    .option('--allow-origin <host...>', 'extra allowed Origin hostnames (localhost, 127.0.0.1, [::1] always allowed)')
    .action(async (opts: Record<string, unknown>) => {
      const { parseConfig } = await import('../fixture/config.ts');
      const { runFixture } = await import('../fixture/main.ts');
      const cfg = parseConfig({
        transport: opts.transport as string,
        port: opts.port as string,
        host: (opts.addr as string | undefined) ?? (opts.host as string),
        stateless: opts.stateless as boolean,
        compat: opts.compat as string,
        catalog: opts.catalog as string,
        catalogFrom: opts.catalogFrom as string | undefined,
        pageSize: opts.pageSize as string,
        maxBodyBytes: opts.maxBodyBytes as string,
        allowOrigin: opts.allowOrigin as string[] | undefined,
        maxSessions: opts.maxSessions as string,
        sessionIdleSeconds: opts.sessionIdleSeconds as string,
      });
      // every knob and the port are checked before the fixture logs or serves anything (exit 2, one line)
      (await import('../fixture/breaks/index.ts')).parseBreaks(process.env);
      if (cfg.transport !== 'stdio') {
        // the HTTP-only env (auth, rate limit, TLS files) and the address: read and checked now
        (await import('../fixture/http/security-front.ts')).parseSecurity(process.env);
        (await import('../fixture/http/tls.ts')).parseTls(process.env);
        const { assertPortFree } = await import('../util/port.ts');
        await assertPortFree(
          cfg.host,
          cfg.port,
          process.env.PORT ? 'PORT' : '--port',
          process.env.MCPFIXTURE_HOST ? 'MCPFIXTURE_HOST' : '--host',
        );
      }
      // started by a harness (MCPGAUGE_PARENT_PID): exit by itself when that parent is gone
      (await import('../util/proc.ts')).watchParent();
      await runFixture(cfg);
    });
}
