/**
 * The corpus formats, in `--format` order. Sniffing tries the file formats in this order (the
 * first whose `sniff` matches loads), folder formats for a folder. A new format: one file here
 * plus one line below (test/corpus/formats.test.ts checks every file is listed).
 */
import { mcpgaugeFormat } from './mcpgauge.ts';
import { mcpproxyFormat } from './mcpproxy.ts';
import { livemcptoolFormat } from './livemcptool.ts';
import { toolretFormat } from './toolret.ts';
import { toolsListFormat } from './tools-list.ts';
import type { CorpusFormat, FileFormat, FolderFormat } from './types.ts';

export type { CorpusFormat, FileFormat, FolderFormat } from './types.ts';

export const CORPUS_FORMAT_LIST = [mcpgaugeFormat, mcpproxyFormat, livemcptoolFormat, toolretFormat, toolsListFormat] as const;

export type CorpusFormatName = (typeof CORPUS_FORMAT_LIST)[number]['format'];

export const FILE_FORMATS = CORPUS_FORMAT_LIST.filter(
  (f): f is Extract<(typeof CORPUS_FORMAT_LIST)[number], FileFormat> => f.input === 'file',
);
export const FOLDER_FORMATS = CORPUS_FORMAT_LIST.filter(
  (f): f is Extract<(typeof CORPUS_FORMAT_LIST)[number], FolderFormat> => f.input === 'folder',
);

export function corpusFormat(name: string): CorpusFormat | undefined {
  return (CORPUS_FORMAT_LIST as readonly CorpusFormat[]).find((f) => f.format === name);
}
