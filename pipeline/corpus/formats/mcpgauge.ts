/** This project's frozen corpus file (`"format": "mcpgauge-corpus"`, datasets/README.md). */
import { isFrozenShape, loadFrozen } from '../frozen.ts';
import type { FileFormat } from './types.ts';

export const mcpgaugeFormat: FileFormat<'mcpgauge'> = {
  format: 'mcpgauge',
  input: 'file',
  description: 'a frozen corpus file of this project (object with format "mcpgauge-corpus")',
  expects: 'a mcpgauge-corpus file',
  sniff: isFrozenShape,
  load: loadFrozen,
};
