/** Shared test helpers for corpus tests: temp folders, JSON files, small ToolRet parquet shards. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';

export function tempDir(prefix = 'mcpgauge-corpus-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeJson(path: string, value: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return path;
}

/** Write a parquet file with string columns (null allowed). */
export function writeParquet(path: string, columns: Record<string, Array<string | null>>): string {
  mkdirSync(dirname(path), { recursive: true });
  const columnData = Object.entries(columns).map(([name, data]) => ({ name, data, type: 'STRING' as const }));
  writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData })));
  return path;
}

/**
 * A small ToolRet folder: two tool configs (one id shared identically across both), two query
 * configs, one blank query, one query whose only label has relevance 0, NaN inside a label doc.
 */
export function writeToolRetFixture(
  root: string,
  opts: { unknownLabel?: boolean; dupQuery?: boolean; conflictDoc?: boolean } = {},
): string {
  writeParquet(join(root, 'tools', 'apibank', 'train-00000.parquet'), {
    id: ['weather_get', 'calendar_add', 'shared_tool'],
    documentation: [
      '{"name":"weather_get","description":"Current weather for a city"}',
      '{"name":"calendar_add","description":"Add an event to a calendar"}',
      '{"name":"shared","description":"Shared doc"}',
    ],
  });
  writeParquet(join(root, 'tools', 'toolbench', 'train-00000.parquet'), {
    id: ['stock_quote', 'shared_tool'],
    documentation: [
      '{"name":"stock_quote","description":"Latest price for a ticker"}',
      opts.conflictDoc ? '{"name":"shared","description":"DIFFERENT"}' : '{"name":"shared","description":"Shared doc"}',
    ],
  });
  writeParquet(join(root, 'queries', 'apibank', 'test-00000.parquet'), {
    id: ['apibank_q1', 'apibank_q2', 'apibank_q3', opts.dupQuery ? 'apibank_q1' : 'apibank_q4'],
    query: ['Is it raining in Paris?', 'Put lunch with Sam on my calendar tomorrow', '   ', 'Only a negative label here'],
    instruction: ['Find a tool', 'Find a tool', 'Find a tool', null],
    labels: [
      '[{"id":"weather_get","relevance":1,"doc":{"score":NaN}}]',
      `[{"id":"calendar_add"},{"id":"${opts.unknownLabel ? 'no_such_tool' : 'shared_tool'}","relevance":2}]`,
      '[{"id":"weather_get","relevance":1}]',
      '[{"id":"stock_quote","relevance":0}]',
    ],
  });
  writeParquet(join(root, 'queries', 'toolbench', 'test-00000.parquet'), {
    id: ['toolbench_q1'],
    query: ['How is ACME stock doing today?'],
    instruction: [null],
    labels: ['[{"id":"stock_quote","relevance":1}]'],
  });
  return root;
}

/** Minimal valid flattened LiveMCPTool document. */
export function liveFlat(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    version: 'livemcptool@ddea2d24',
    source: { dataset: 'ICIP/LiveMCPBench', revision: 'ddea2d24196638bc4026c4cb891f679d0357bfd0' },
    server_count: 2,
    tool_count: 3,
    tools: [
      {
        server: 'weather',
        tool: 'forecast',
        description: 'Seven-day forecast for a place',
        inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
      { server: 'weather', tool: 'alerts', description: null, inputSchema: { type: 'object', properties: {} } },
      {
        server: 'calc',
        tool: 'add',
        description: 'Adds two numbers together precisely',
        inputSchema: '{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}',
      },
    ],
    ...overrides,
  };
}

/** Minimal upstream marketplace array (same tools as liveFlat, plus an entry that failed upstream). */
export function liveMarketplace(): unknown[] {
  return [
    {
      name: 'Weather MCP',
      description: 'weather things',
      category: 'Life',
      tools: {
        weather: {
          server_name: 'weather',
          version: '0.1.0',
          tools: [
            {
              name: 'forecast',
              description: 'Seven-day forecast for a place',
              inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              annotations: null,
            },
            {
              name: 'alerts',
              description: null,
              inputSchema: { type: 'object', properties: {} },
              annotations: { readOnlyHint: true, destructiveHint: null },
            },
          ],
        },
      },
    },
    { name: 'Broken MCP', description: 'failed to list', category: 'Other' },
    {
      name: 'Calc MCP',
      tools: {
        calc: {
          server_name: 'calc',
          tools: [
            {
              name: 'add',
              description: 'Adds two numbers together precisely',
              inputSchema: { properties: { b: { type: 'number' }, a: { type: 'number' } }, type: 'object' },
            },
          ],
        },
      },
    },
  ];
}
