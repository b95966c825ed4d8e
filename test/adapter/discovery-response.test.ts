/** The discovery-response reader the adapter names tools with (and the live stage attributes spans on). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoveryRanking, readDiscoveryResponse } from '../../pipeline/adapter/discovery-response.ts';
import { JsonScanError } from '../../pipeline/util/json-scan.ts';
import { partitionResponse } from '../../pipeline/live/spans.ts';

const enc = new TextEncoder();

test('discoveryRanking: ids, server-prefixed names, wrapped entries, string entries, in response order', () => {
  const text = JSON.stringify({
    query: 'q',
    tools: [
      { name: 'read', server: 'fs', score: 1 },
      { name: 'fs:write', server: 'fs' },
      { tool: { name: 'echo', server_name: 'everything' }, score: 0.5 },
      { id: 'mem:add', name: 'ignored' },
      'plain_name',
      42,
    ],
  });
  assert.deepEqual(discoveryRanking(text), ['fs:read', 'fs:write', 'everything:echo', 'mem:add', 'plain_name']);
  assert.deepEqual(discoveryRanking(JSON.stringify([{ tool_id: 'a:b' }])), ['a:b']);
  assert.deepEqual(discoveryRanking(JSON.stringify({ results: [{ name: 'x' }] })), ['x']);
});

test('discoveryRanking: not one JSON value (bad text, trailing data) is an empty ranking', () => {
  assert.deepEqual(discoveryRanking('no tools here'), []);
  assert.deepEqual(discoveryRanking('{"tools":[{"name":"a"}]} trailing'), []);
  assert.deepEqual(discoveryRanking('{"tools":[{"name":"a"}'), []);
  assert.throws(() => readDiscoveryResponse(enc.encode('{"tools":[1,]}'), { structure() {}, topPair() {}, entryPair() {} }), JsonScanError);
});

test('readDiscoveryResponse: the visited parts end in order at the text end; call_with per entry', () => {
  const text = '{"tools": [ {"name":"a","call_with":"call_tool_read"}, {"name":"b"} ], "total": 2 }\n';
  const ends: [string, string | null, number][] = [];
  const read = readDiscoveryResponse(enc.encode(text), {
    structure: (end) => ends.push(['structure', null, end]),
    topPair: (key, end) => ends.push(['top', key, end]),
    entryPair: (key, end) => ends.push(['entry', key, end]),
  });
  assert.deepEqual(read, { resultCount: 2, ranking: ['a', 'b'], callWith: { a: 'call_tool_read' }, sawToolArray: true });
  for (let i = 1; i < ends.length; i++) assert.ok(ends[i][2] >= ends[i - 1][2], `part ${i} ends before the one before it`);
  assert.equal(ends[ends.length - 1][2], enc.encode(text).length);
  assert.deepEqual(
    ends.filter((e) => e[0] !== 'structure').map((e) => e[1]),
    ['name', 'call_with', 'name', 'total'],
  );
  // the live stage's attribution reads the same walk: same ranking, same call hints
  const p = partitionResponse(text);
  assert.deepEqual([p.ranking, p.callWith, p.resultCount], [read.ranking, read.callWith, read.resultCount]);
});
