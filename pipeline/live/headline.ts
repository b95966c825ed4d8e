/**
 * The menu headline rule: the menu figures are authoritative only when every tool on both
 * sides has an input schema and a side is not all empty stubs (else break-even is withheld).
 */
import type { ToolRecord } from '../types.ts';

/** A schema that carries nothing: absent, null, not an object, or an object without keys. */
export function schemaMissing(schema: unknown): boolean {
  return schema === undefined || schema === null || typeof schema !== 'object' || Array.isArray(schema) || Object.keys(schema).length === 0;
}

function declaresProperties(schema: unknown): boolean {
  if (schemaMissing(schema)) return false;
  const p = (schema as Record<string, unknown>).properties;
  return typeof p === 'object' && p !== null && Object.keys(p).length > 0;
}

/**
 * Why the menu headline is not authoritative (null = it is): a tool without a schema on either
 * side, or a side where no tool declares any parameter (stub schemas, e.g. a REST export).
 */
export function headlineProblem(proxyTools: readonly ToolRecord[], upstreamTools: readonly ToolRecord[]): string | null {
  const problems: string[] = [];
  const side = (label: string, tools: readonly ToolRecord[]) => {
    const missing = tools.filter((t) => schemaMissing(t.inputSchema)).map((t) => t.tool_id);
    if (missing.length) {
      problems.push(
        `${missing.length} ${label} tool(s) without an inputSchema (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})`,
      );
    } else if (tools.length >= 2 && !tools.some((t) => declaresProperties(t.inputSchema))) {
      problems.push(`every ${label} schema is an empty stub (no tool declares a parameter)`);
    }
  };
  side('proxy', proxyTools);
  side('upstream', upstreamTools);
  if (upstreamTools.length === 0) problems.push('no upstream tools to compare with');
  return problems.length ? `schemas missing: ${problems.join('; ')}; savings and break-even withheld` : null;
}
