/** Live stage: command-line splitting, targets, flags, headline rule and LAP merge (no processes, except a stand-in `lap`). */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitCommandLine, commandTarget, urlTarget, openTarget } from '../../pipeline/live/proxy-under-test.ts';
import { liveOptionsFromFlags, liveOptions } from '../../pipeline/live/flags.ts';
import { buildProgram } from '../../pipeline/cli.ts';
import { headlineProblem, schemaMissing } from '../../pipeline/live/headline.ts';
import { planCalls } from '../../pipeline/live/call-plan.ts';
import type { LiveSettings } from '../../pipeline/live/settings.ts';
import { lapSection, parseLapText, findOnPath } from '../../pipeline/live/lap.ts';
import { UserError, type ToolRecord } from '../../pipeline/types.ts';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcpgauge-live-units-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const userError = (re: RegExp) => (e: Error) => e instanceof UserError && re.test(e.message);

test('splitCommandLine follows simple shell quoting', () => {
  assert.deepEqual(splitCommandLine('node  bin/x.mjs proxy --config "my file.json"'), [
    'node',
    'bin/x.mjs',
    'proxy',
    '--config',
    'my file.json',
  ]);
  assert.deepEqual(splitCommandLine(`a 'b c' "d \\"e\\" \\$f" g\\ h '' "x"y'z'`), ['a', 'b c', 'd "e" $f', 'g h', '', 'xyz']);
  assert.deepEqual(splitCommandLine(`'it''s' "a'b"`), ['its', "a'b"]);
  assert.throws(() => splitCommandLine('node "unterminated'), userError(/--proxy-cmd: unterminated double quote/));
  assert.throws(() => splitCommandLine("node 'x"), userError(/unterminated single quote/));
});

test('commandTarget: env prefix, node -> this node; urlTarget: /mcp and both auth headers', () => {
  const t = commandTarget("FOO=1 BAR='a b' node proxy.js --x");
  assert.deepEqual(t, { kind: 'stdio', command: process.execPath, args: ['proxy.js', '--x'], env: { FOO: '1', BAR: 'a b' } });
  assert.throws(() => commandTarget('A=1'), userError(/no command/));
  assert.deepEqual(urlTarget('http://127.0.0.1:8092', 'k3y'), {
    kind: 'http',
    url: 'http://127.0.0.1:8092/mcp',
    headers: { 'X-API-Key': 'k3y', Authorization: 'Bearer k3y' },
  });
  assert.equal(urlTarget('http://127.0.0.1:9/custom/path').url, 'http://127.0.0.1:9/custom/path');
  assert.throws(() => urlTarget('not a url'), userError(/--proxy-url: not a valid URL: "not a url"/));
  assert.throws(() => urlTarget('ftp://x/'), userError(/must be http/));
});

test('openTarget rejects contradictory options before starting anything', async () => {
  await assert.rejects(openTarget({ proxyUrl: 'http://127.0.0.1:1/mcp', proxyCmd: 'x' }), userError(/cannot be combined/));
  await assert.rejects(openTarget({ apiKey: 'k' }), userError(/--api-key needs --proxy-url/));
  const bad = join(dir, 'bad-upstreams.json');
  writeFileSync(bad, JSON.stringify({ servers: [{ name: 'a:b', command: 'x' }] }));
  await assert.rejects(openTarget({ proxyCmd: 'x', upstreamsFile: bad }), userError(/bad-upstreams\.json: servers\[0\].*field "name"/));
  await assert.rejects(openTarget({ embeddedServers: ['github'] }), userError(/embedded upstream "github" is unknown/));
});

test('liveOptionsFromFlags maps commander options and names the bad flag', () => {
  assert.deepEqual(
    liveOptionsFromFlags({
      proxyUrl: 'http://127.0.0.1:8080',
      apiKey: 'k',
      upstreams: 'u.json',
      discoveryTool: 'search_tools',
      queryArg: 'q',
      limitArg: 'none',
      detailArg: 'mode',
      limit: '15',
      liveDetails: 'full',
      runs: '5',
      warmup: '0',
      liveQueries: '7',
      callTimeout: '1000',
      lapJson: 'lap.json',
      lap: false,
      protocol: 'auto',
      tokenizers: 'cl100k_base',
    }),
    {
      proxyUrl: 'http://127.0.0.1:8080',
      apiKey: 'k',
      upstreamsFile: 'u.json',
      discoveryTool: 'search_tools',
      argNames: { query: 'q', limit: null, detail: 'mode' },
      limit: 15,
      details: ['full'],
      runs: 5,
      warmup: 0,
      maxQueries: 7,
      callTimeoutMs: 1000,
      lapJson: 'lap.json',
      lap: 'off',
      protocol: 'auto',
      tokenizers: ['cl100k_base'],
    },
  );
  assert.deepEqual(liveOptionsFromFlags({ lap: true, tokenizers: 'all' }), {});
  assert.deepEqual(liveOptionsFromFlags({ golden: 'g.json', corpus: 'c.json', bootstrap: 500, seed: 0 }), {
    goldenFile: 'g.json',
    corpusFile: 'c.json',
    bootstrap: { iterations: 500, seed: 0 },
  });
  // --golden none is honoured (menus and a cheap call only), not refused
  assert.equal(liveOptionsFromFlags({ golden: 'none' }).noGolden, true);
  assert.throws(() => liveOptionsFromFlags({ maxErrorRate: '2' }), userError(/--max-error-rate must be a number in 0\.\.1, got "2"/));
  assert.throws(() => liveOptionsFromFlags({ style: 'magic' }), userError(/--style must be one of auto, discovery, passthrough/));
  assert.throws(
    () => liveOptionsFromFlags({ transport: 'ws' }),
    userError(/--transport must be one of auto, streamable-http, sse, got "ws"/),
  );
  assert.deepEqual(liveOptionsFromFlags({ embeddedServers: 'fixture,memory' }), { embeddedServers: ['fixture', 'memory'] });
  assert.throws(() => liveOptionsFromFlags({ runs: '0' }), userError(/^--runs must be an integer >= 1, got "0"$/));
  assert.throws(() => liveOptionsFromFlags({ limit: '2.5' }), userError(/^--limit must be an integer/));
  assert.throws(() => liveOptionsFromFlags({ liveDetails: 'full,tiny' }), userError(/unknown detail "tiny"/));
  assert.throws(() => liveOptionsFromFlags({ protocol: '2024' }), userError(/--protocol/));
  assert.throws(() => liveOptionsFromFlags({ embeddedServers: 'github' }), userError(/--embedded-servers: unknown server "github"/));
  assert.throws(() => liveOptionsFromFlags({ proxyCmd: 'x', proxyUrl: 'http://a' }), userError(/cannot be combined/));
  assert.throws(() => liveOptionsFromFlags({ upstreams: 'u.json' }), userError(/--upstreams needs/));
  // every recognised key is described for the CLI
  const described = liveOptions().map((o) => o.long);
  for (const f of [
    '--proxy-url',
    '--api-key',
    '--proxy-cmd',
    '--upstreams',
    '--discovery-tool',
    '--lap-json',
    '--no-lap',
    '--runs',
    '--warmup',
    '--live-queries',
  ]) {
    assert.ok(described.includes(f), f);
  }
});

test('headline rule: a missing schema on either side, or an all-stub side, withholds the headline', () => {
  const t = (id: string, inputSchema?: unknown): ToolRecord => ({
    tool_id: id,
    server: id.split(':')[0],
    tool: id.split(':')[1],
    description: 'd',
    ...(inputSchema === undefined ? {} : { inputSchema: inputSchema as never }),
  });
  const real = { type: 'object', properties: { path: { type: 'string' } } };
  const noArgs = { type: 'object', properties: {} };
  assert.equal(schemaMissing({}), true);
  assert.equal(schemaMissing(null), true);
  assert.equal(schemaMissing([]), true);
  assert.equal(schemaMissing(noArgs), false);
  const proxy = [t('proxy:retrieve_tools', real), t('proxy:upstream_servers', noArgs)];
  const up = [t('fs:read', real), t('fs:list_allowed', noArgs)];
  assert.equal(headlineProblem(proxy, up), null);
  assert.match(
    headlineProblem([...proxy, t('proxy:x')], up)!,
    /^schemas missing: 1 proxy tool\(s\) without an inputSchema \(proxy:x\); savings and break-even withheld$/,
  );
  assert.match(headlineProblem(proxy, [t('fs:a', {}), t('fs:b', real)])!, /1 upstream tool\(s\) without an inputSchema \(fs:a\)/);
  assert.match(headlineProblem(proxy, [t('fs:a', noArgs), t('fs:b', noArgs)])!, /every upstream schema is an empty stub/);
  assert.match(headlineProblem(proxy, [])!, /no upstream tools/);
});

test('LAP merge: grade and menu tokens, divergence warning only beyond 15%', () => {
  const ok = parseLapText(JSON.stringify({ grade: { score: 60, letter: 'C' }, menu_tokens: 1150 }), 'lap.json', 1000);
  assert.deepEqual(ok, { executed: true, menu_tokens: 1150, grade: 'C', in_house_menu_tokens: 1000, divergence_pct: 15 });
  const warn = parseLapText(JSON.stringify({ grade: { letter: 'B' }, menu_tokens: 1151 }), 'lap.json', 1000);
  assert.equal(warn.divergence_pct, 15.1);
  assert.match(warn.warning!, /^LAP counts 1151 menu tokens, ours 1000 \(cl100k_base\): \+15\.1% \(more than ±15%/);
  const low = parseLapText(JSON.stringify({ menu_tokens: 700 }), 'x', 1000);
  assert.equal(low.divergence_pct, -30);
  assert.match(low.warning!, /: -30%/);
  assert.equal(low.grade, undefined);
});

test('LAP merge: the lap-score 0.8.0 `lap lint --mcp-url … --json` shape (as printed against the reference proxy)', () => {
  const real = {
    api: 'MCP server (4 advertised tool(s))',
    source: 'http://127.0.0.1:41137/mcp',
    grade: { score: 83, letter: 'B', subscores: { menu: 88, hygiene: 75 } },
    menu_tokens: 484,
    heaviest_tools: [{ tool: 'retrieve_tools', tokens: 199, description_tokens: 71, schema_tokens: 109 }],
    next_grade: { letter: 'A', threshold: 85, menu_budget: 457 },
    findings: [
      { rule: 'M4', severity: 'info', where: 'upstream_servers', message: "inputSchema declares parameters but no 'required' list" },
    ],
    warnings: 0,
    suggestions: 1,
  };
  const r = parseLapText(JSON.stringify(real, null, 2), 'from `lap lint`', 361);
  assert.equal(r.executed, true);
  assert.equal(r.grade, 'B');
  assert.equal(r.menu_tokens, 484);
  assert.equal(r.in_house_menu_tokens, 361);
  assert.equal(r.divergence_pct, 34.07);
  assert.match(r.warning!, /^LAP counts 484 menu tokens, ours 361 \(cl100k_base\): \+34\.07%/);
  assert.equal(
    parseLapText(JSON.stringify({ grade: 'A', menu_tokens: 10 }), 'x', 10).grade,
    'A',
    'a plain grade string (older shape) still reads',
  );
});

test('LAP: bad artifacts become skip reasons, never errors', async () => {
  const notJson = join(dir, 'lap-bad.json');
  writeFileSync(notJson, '{"menu_tokens": 12');
  const zero = join(dir, 'lap-zero.json');
  writeFileSync(zero, JSON.stringify({ grade: { letter: 'A' }, menu_tokens: 0 }));
  const arr = join(dir, 'lap-arr.json');
  writeFileSync(arr, '[1,2]');
  const r1 = await lapSection({ lapJson: notJson, inHouseMenuTokens: 100 });
  assert.equal(r1.executed, false);
  assert.match(r1.skip_reason!, /^LAP artifact .*lap-bad\.json is not valid JSON: /);
  assert.deepEqual(await lapSection({ lapJson: zero, inHouseMenuTokens: 100 }), {
    executed: false,
    skip_reason: `LAP artifact ${zero} has no positive menu_tokens (got 0)`,
  });
  assert.match((await lapSection({ lapJson: arr, inHouseMenuTokens: 100 })).skip_reason!, /is not a JSON object/);
  assert.match(
    (await lapSection({ lapJson: join(dir, 'missing.json'), inHouseMenuTokens: 100 })).skip_reason!,
    /^LAP artifact unreadable: .*missing\.json: ENOENT$/,
  );
  assert.deepEqual(await lapSection({ mode: 'off', lapJson: zero, inHouseMenuTokens: 100 }), {
    executed: false,
    skip_reason: 'skipped: LAP disabled (--no-lap)',
  });
  const good = join(dir, 'lap-good.json');
  writeFileSync(good, JSON.stringify({ grade: { letter: 'C' }, menu_tokens: 4741 }));
  assert.deepEqual(await lapSection({ lapJson: good, inHouseMenuTokens: 4500 }), {
    executed: true,
    menu_tokens: 4741,
    grade: 'C',
    in_house_menu_tokens: 4500,
    divergence_pct: 5.36,
    artifact_path: good,
  });
});

test('LAP command: runs `lap lint --mcp-url URL --json` against a loopback forwarder (stand-in executable; the real lap-score: lap.test.ts)', async () => {
  const bin = join(dir, 'bin');
  const argsOut = join(dir, 'lap-args.txt');
  mkdirSync(bin, { recursive: true });
  const lap = join(bin, 'lap');
  writeFileSync(lap, `#!/bin/sh\necho "$@" > '${argsOut}'\necho '{"grade":{"letter":"B"},"menu_tokens":900}'\n`);
  chmodSync(lap, 0o755);
  assert.equal(findOnPath('lap', `/nonexistent:${bin}`), lap);
  assert.equal(findOnPath('lap', '/nonexistent'), null);
  const r = await lapSection({ mode: 'auto', lapCommand: lap, httpUrl: 'http://127.0.0.1:1234/mcp', inHouseMenuTokens: 1000 });
  assert.deepEqual(r, { executed: true, menu_tokens: 900, grade: 'B', in_house_menu_tokens: 1000, divergence_pct: -10 });
  // lap is given the forwarder's URL (no key, no query), never the proxy's own
  assert.match(readFileSync(argsOut, 'utf8').trim(), /^lint --mcp-url http:\/\/127\.0\.0\.1:\d+\/mcp --json$/);
  assert.notEqual(readFileSync(argsOut, 'utf8').trim(), 'lint --mcp-url http://127.0.0.1:1234/mcp --json');
  assert.deepEqual(await lapSection({ mode: 'auto', lapCommand: lap, inHouseMenuTokens: 1000 }), {
    executed: false,
    skip_reason:
      'skipped: lap needs an HTTP proxy URL (the target is a stdio command); serve the proxy over HTTP and pass --proxy-url (the embedded default and HTTP-served presets have one)',
  });
  assert.deepEqual(
    await lapSection({ lapCommand: lap, httpUrl: 'http://127.0.0.1:1234/mcp', inHouseMenuTokens: 1000, mode: undefined, venv: {} }).then(
      (x) => x.executed || x.skip_reason,
    ),
    process.env.MCPGAUGE_LAP === 'off' ? 'skipped: LAP disabled (MCPGAUGE_LAP=off)' : true,
  );
  const failing = join(bin, 'lap-fail');
  writeFileSync(failing, '#!/bin/sh\necho "no such server" >&2\nexit 3\n');
  chmodSync(failing, 0o755);
  const f = await lapSection({ mode: 'auto', lapCommand: failing, httpUrl: 'http://127.0.0.1:1/mcp', inHouseMenuTokens: 1000 });
  assert.equal(f.executed, false);
  assert.match(f.skip_reason!, /^lap failed: .*no such server/);
});

test('bench parses the live flags with commander Options: defaults, choices and argParser errors at parse time', () => {
  const parse = (...args: string[]) => {
    const program = buildProgram();
    const bench = program.commands.find((c) => c.name() === 'bench')!;
    bench.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
    bench.action(() => {});
    program.parse(['node', 'mcpgauge', 'bench', ...args]);
    return bench.opts();
  };
  const d = parse();
  assert.equal(d.protocol, 'legacy');
  assert.equal(d.runs, '3');
  assert.equal(parse('--runs', '5').runs, '5');
  assert.throws(() => parse('--protocol', '2024'), /argument '2024' is invalid\. Allowed choices are legacy, auto, 2026-07-28/);
  assert.throws(() => parse('--runs', '0'), userError(/^--runs must be an integer >= 1, got "0"$/));
  assert.throws(() => parse('--live-details', 'full,tiny'), userError(/unknown detail "tiny"/));
  assert.throws(() => parse('--embedded-servers', 'github'), userError(/unknown server "github"/));
});

test('--detail-arg none: no detail argument is sent even when the discovery tool declares one, and only full is measured', () => {
  assert.equal(liveOptionsFromFlags({ detailArg: 'none' }).argNames?.detail, null);
  const tool = {
    name: 'retrieve_tools',
    inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'number' }, detail: { type: 'string' } } },
  };
  const settings = (detail: string | null) =>
    ({
      discoveryTool: 'retrieve_tools',
      argNames: { query: 'query', limit: 'limit', detail },
      wantDetails: ['full', 'compact'],
    }) as Partial<LiveSettings> as LiveSettings;
  type Opened = Parameters<typeof planCalls>[2];
  const target = { proxy: { kind: 'http', url: 'http://127.0.0.1:9/mcp' } } as Partial<Opened> as Opened;
  const withArg = planCalls([tool], settings('detail'), target, []);
  assert.equal(withArg.sendDetail, true);
  assert.deepEqual(withArg.details, ['full', 'compact']);
  const errors: Parameters<typeof planCalls>[3] = [];
  const none = planCalls([tool], settings(null), target, errors);
  assert.equal(none.sendDetail, false);
  assert.deepEqual(none.details, ['full']);
  assert.match(errors.map((e) => e.message).join(' '), /compact detail not measured/);
});
