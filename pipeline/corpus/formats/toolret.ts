/** ToolRet: a folder with tools/ and queries/ parquet shards (it brings its own golden queries). */
import type { FolderFormat } from './types.ts';

export const toolretFormat: FolderFormat<'toolret'> = {
  format: 'toolret',
  input: 'folder',
  description: 'a ToolRet folder with tools/ and queries/ parquet shards (brings its own queries)',
  expects: 'a ToolRet folder',
  // any folder is offered to ToolRet: its loader names what is missing (tools/ and queries/)
  sniff: () => true,
  refuseFile: (path) =>
    path.endsWith('.parquet') ? 'a single parquet shard is not a corpus; pass the ToolRet folder (with tools/ and queries/)' : undefined,
  async load(path) {
    // hyparquet only for ToolRet folders (lazy: every other command and corpus shape skips it)
    const { loadToolRet } = await import('../toolret.ts');
    return (await loadToolRet(path)).corpus;
  },
};
