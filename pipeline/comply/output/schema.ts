/** The comply report's JSON Schema (datasets/schemas/comply-report.schema.json), checked with ajv before anything is written. */
import { join } from 'node:path';
import { REPO_ROOT } from '../../constants.ts';
import { UserError } from '../../types.ts';
import { briefAjvError, compileSchemaFile, type ValidateFunction } from '../../util/schema.ts';
import type { ComplyReport } from '../types.ts';

export const COMPLY_SCHEMA_PATH = join(REPO_ROOT, 'datasets', 'schemas', 'comply-report.schema.json');

let compiled: ValidateFunction | undefined;

export function complySchemaValidator(): ValidateFunction {
  compiled ??= compileSchemaFile(COMPLY_SCHEMA_PATH);
  return compiled;
}

/** Throws a one-line UserError naming the first problems when the report does not match its schema. */
export function validateComplyReport(r: ComplyReport | unknown): void {
  const v = complySchemaValidator();
  if (v(r)) return;
  const errs = (v.errors ?? []).slice(0, 3).map(briefAjvError);
  throw new UserError(`comply report does not match ${COMPLY_SCHEMA_PATH}: ${errs.join('; ')}`);
}
