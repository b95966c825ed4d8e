/** A comply JSON report file as a dashboard section input (validated against its schema first). */
import { readJsonFile } from '../util/fs.ts';
import { sectionFor, type SectionInput } from '../report/index.ts';
import { complianceSection } from './section.ts';
import { validateComplyReport } from './output/schema.ts';
import type { ComplyReport } from './types.ts';

export async function complySectionInput(path: string): Promise<SectionInput> {
  const doc = readJsonFile(path);
  validateComplyReport(doc);
  return sectionFor(complianceSection, doc as ComplyReport);
}
