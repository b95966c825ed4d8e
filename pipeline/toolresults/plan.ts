/**
 * What `corpus freeze-results` calls, on which server, with which arguments: the capture plan
 * as data. Paths are written with the placeholder `<ALLOWED_DIR>` (the temp copy of the seed
 * folder handed to the filesystem server); the capture substitutes it before calling and the
 * fixture file keeps the placeholder. The memory calls create the seed knowledge graph first,
 * so their outputs are the server's answers about that graph. Calls run in this order, each
 * server in a fresh process.
 */
import type { JsonValue } from '../types.ts';
import { ALLOWED_DIR_PLACEHOLDER, type SeedGraph } from './seed.ts';

export interface CaptureCall {
  /** fixture id suffix: the fixture id is `<server>:<tool>/<label>` */
  label: string;
  tool: string;
  arguments: { [k: string]: JsonValue };
  /** payload object keys whose values are per-process (random ids): replaced by `<KEY>` placeholders */
  volatileKeys?: string[];
}

export interface CapturePlanEntry {
  /** a server of NPM4_SERVERS, or "fixture" */
  server: string;
  calls: CaptureCall[];
}

const D = ALLOWED_DIR_PLACEHOLDER;

export function capturePlan(graph: SeedGraph): CapturePlanEntry[] {
  return [
    {
      server: 'filesystem',
      calls: [
        { label: 'root', tool: 'list_directory_with_sizes', arguments: { path: D } },
        { label: 'data', tool: 'list_directory_with_sizes', arguments: { path: `${D}/data`, sortBy: 'size' } },
        { label: 'root', tool: 'directory_tree', arguments: { path: D } },
        { label: 'data', tool: 'directory_tree', arguments: { path: `${D}/data` } },
        { label: 'logs', tool: 'directory_tree', arguments: { path: `${D}/logs` } },
        { label: 'tests', tool: 'search_files', arguments: { path: D, pattern: '**/*.test.ts' } },
        { label: 'sales', tool: 'get_file_info', arguments: { path: `${D}/data/sales.csv` } },
        { label: 'settings', tool: 'read_text_file', arguments: { path: `${D}/config/settings.yaml` } },
        // JSON documents as a tool hands them over: tables (orders, stock, search hits) and irregular data
        { label: 'orders', tool: 'read_text_file', arguments: { path: `${D}/data/orders.json` } },
        { label: 'stock', tool: 'read_text_file', arguments: { path: `${D}/data/stock.json` } },
        { label: 'search-hits', tool: 'read_text_file', arguments: { path: `${D}/data/search-hits.json` } },
        { label: 'api-response', tool: 'read_text_file', arguments: { path: `${D}/data/api-response.json` } },
        { label: 'events', tool: 'read_text_file', arguments: { path: `${D}/data/events.json` } },
        { label: 'allowed', tool: 'list_allowed_directories', arguments: {} },
      ],
    },
    {
      server: 'memory',
      calls: [
        { label: 'seed', tool: 'create_entities', arguments: { entities: graph.entities as unknown as JsonValue } },
        { label: 'seed', tool: 'create_relations', arguments: { relations: graph.relations as unknown as JsonValue } },
        { label: 'all', tool: 'read_graph', arguments: {} },
        { label: 'coffee', tool: 'search_nodes', arguments: { query: 'coffee' } },
        { label: 'alice-bob', tool: 'open_nodes', arguments: { names: ['Alice', 'Bob'] } },
      ],
    },
    {
      server: 'sequential-thinking',
      calls: [
        {
          label: 'step1',
          tool: 'sequentialthinking',
          arguments: {
            thought: 'List the stages of the database migration before writing code.',
            thoughtNumber: 1,
            totalThoughts: 3,
            nextThoughtNeeded: true,
          },
        },
      ],
    },
    {
      server: 'everything',
      calls: [
        { label: 'chicago', tool: 'get-structured-content', arguments: { location: 'Chicago' } },
        { label: 'sum', tool: 'get-sum', arguments: { a: 1234, b: 5678 } },
        { label: 'five', tool: 'get-resource-links', arguments: { count: 5 } },
        { label: 'success', tool: 'get-annotated-message', arguments: { messageType: 'success', includeImage: false } },
      ],
    },
    {
      server: 'fixture',
      calls: [
        { label: 'word', tool: 'echo', arguments: { input: 'northwind' } },
        { label: 'first', tool: 'ping', arguments: {}, volatileKeys: ['instance_id'] },
      ],
    },
  ];
}
