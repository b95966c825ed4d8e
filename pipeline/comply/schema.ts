/** The comply report's JSON Schema (datasets/schemas/comply-report.schema.json), checked with ajv before anything is written. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../constants.ts';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { UserError } from '../types.ts';
import type { ComplyReport } from './types.ts';

export const COMPLY_SCHEMA_PATH = join(REPO_ROOT, 'datasets', 'schemas', 'comply-report.schema.json');

let compiled: ValidateFunction | undefined;

export function complySchemaValidator(): ValidateFunction {
  if (compiled) return compiled;
  const Ajv2020 = ((Ajv2020Module as unknown as { default?: unknown }).default ?? Ajv2020Module) as unknown as typeof Ajv2020Module.default;
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as typeof addFormatsModule.default;
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  compiled = ajv.compile(JSON.parse(readFileSync(COMPLY_SCHEMA_PATH, 'utf8')));
  return compiled;
}

/** Throws a one-line UserError naming the first problems when the report does not match its schema. */
export function validateComplyReport(r: ComplyReport | unknown): void {
  const v = complySchemaValidator();
  if (v(r)) return;
  const errs = (v.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
  throw new UserError(`comply report does not match ${COMPLY_SCHEMA_PATH}: ${errs.join('; ')}`);
}
