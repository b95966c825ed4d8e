/** Corpora and their hygiene (degenerate descriptions, schema sizes, duplicate schemas). */
import type { Block, ReportSection } from '../details.ts';
import { html } from '../html.ts';
import { rich } from '../render.ts';
import type { CorpusReport, Report } from '../types.ts';

function hygieneDetails(c: CorpusReport): Block {
  const ex = c.hygiene.degenerate.examples;
  const groups = c.hygiene.duplicate_schemas.groups;
  const blocks: Block[] = [
    { kind: 'paragraph', text: 'Rules:' },
    { kind: 'list', items: c.hygiene.degenerate.rules },
    ex.length
      ? {
          kind: 'table',
          columns: [
            { key: 'tool_id', label: 'Tool', type: 'ident' },
            { key: 'description', label: 'Description', type: 'text' },
            { key: 'rule', label: 'Rule', type: 'text' },
          ],
          rows: ex.map((e) => ({
            tool_id: e.tool_id,
            description: rich(html`<code>${JSON.stringify(e.description)}</code>`, e.description),
            rule: e.rule ?? '',
          })),
        }
      : { kind: 'paragraph', text: 'no examples', muted: true },
  ];
  const utf8 = c.hygiene.invalid_utf8;
  if (utf8 && utf8.count > 0) {
    blocks.push({
      kind: 'paragraph',
      text: `Invalid UTF-8 (decoded as U+FFFD) in ${utf8.count} tool(s): ${utf8.tool_ids.join(', ')}${utf8.count > utf8.tool_ids.length ? ', …' : ''}`,
    });
  }
  if (groups.length) {
    blocks.push({
      kind: 'table',
      columns: [
        { key: 'sha', label: 'Schema sha256', type: 'text' },
        { key: 'bytes', label: 'Bytes', type: 'int' },
        { key: 'tool_count', label: 'Tools', type: 'int' },
        { key: 'ids', label: 'Tool ids', type: 'text' },
      ],
      rows: groups.map((g) => ({
        sha: rich(html`<code>${g.schema_sha256.slice(0, 12)}</code>`, g.schema_sha256),
        bytes: g.bytes,
        tool_count: g.tool_count,
        ids: g.tool_ids.join(', '),
      })),
    });
  }
  return {
    kind: 'details',
    summary: html`${c.id}: ${c.hygiene.degenerate.count} degenerate descriptions, ${groups.length} duplicate-schema groups · source <code>${c.source}</code>`,
    blocks,
  };
}

export const corporaSection: ReportSection<Report> = {
  id: 'corpora',
  title: 'Corpora and hygiene',
  provenanceKeys: ['corpora'],
  schemaRefs: ['#/$defs/corpus', '#/$defs/hygiene'],
  build(r) {
    const table: Block = {
      kind: 'table',
      id: 'corpora-table',
      columns: [
        { key: 'id', label: 'Corpus', type: 'key' },
        { key: 'name', label: 'Name', type: 'text', wide: true },
        { key: 'version', label: 'Version', type: 'ident' },
        { key: 'tool_count', label: 'Tools', type: 'int' },
        { key: 'license', label: 'License', type: 'text' },
        { key: 'committed', label: 'Committed', type: 'text' },
        { key: 'format', label: 'Format', type: 'text' },
        { key: 'degenerate', label: 'Degenerate descr.', type: 'int' },
        { key: 'p50', label: 'Schema bytes p50', type: 'num', digits: 0 },
        { key: 'p95', label: 'p95', type: 'num', digits: 0 },
        { key: 'max', label: 'max', type: 'num', digits: 0 },
        { key: 'no_schema', label: 'No schema', type: 'int' },
        { key: 'distinct', label: 'Distinct schemas', type: 'int' },
        { key: 'sharing', label: 'Tools sharing a schema', type: 'int' },
      ],
      rows: r.corpora.map((c) => {
        const h = c.hygiene;
        return {
          id: c.id,
          name: rich(html`${c.name}${c.attribution ? html`<div class="meta">${c.attribution}</div>` : ''}`, c.name),
          version: c.version,
          tool_count: c.tool_count,
          license: c.license,
          committed: rich(html`${c.committed ? 'yes' : 'no (runtime fetch)'}`, c.committed ? 1 : 0),
          format: c.format,
          degenerate: h.degenerate.count,
          p50: h.schema_size.p50,
          p95: h.schema_size.p95,
          max: h.schema_size.max,
          no_schema: h.schema_size.tools_without_schema,
          distinct: h.duplicate_schemas.distinct,
          sharing: h.duplicate_schemas.tools_sharing,
        };
      }),
    };
    return { blocks: [table, ...r.corpora.map(hygieneDetails)] };
  },
};
