/**
 * One corpus format = one file here exporting a `CorpusFormat`, listed once in `index.ts`.
 * `loadCorpus` (../load.ts), `--format` choices and the unknown-shape error all read that list.
 */
import type { Corpus } from '../../types.ts';

interface FormatMeta<F extends string> {
  /** the `--format` value */
  format: F;
  /** one line: what the format is (docs, pipeline/corpus/README.md) */
  description: string;
  /** how the unknown-shape error names it ("expected a ..., ... or ...") */
  expects: string;
}

/** A format read from one JSON file. */
export interface FileFormat<F extends string = string> extends FormatMeta<F> {
  input: 'file';
  /** does this parsed document have this format's shape (formats are tried in list order; the first match loads) */
  sniff(data: unknown): boolean;
  load(path: string, data: unknown): Corpus;
}

/** A format read from a folder. */
export interface FolderFormat<F extends string = string> extends FormatMeta<F> {
  input: 'folder';
  /** does this folder hold this format (folder formats are tried in list order) */
  sniff(dir: string): boolean;
  /** a file this format owns but that is not a corpus on its own: the one-line reason (checked before any file is read as JSON) */
  refuseFile?(path: string): string | undefined;
  load(path: string): Promise<Corpus>;
}

export type CorpusFormat<F extends string = string> = FileFormat<F> | FolderFormat<F>;
