/** LiveMCPTool: the upstream marketplace array, or the flattened object (tool_count/server_count + tools). */
import { isLiveMcpToolFlatShape, isMarketplaceShape, loadLiveMcpToolFlat, loadLiveMcpToolMarketplace } from '../livemcptool.ts';
import type { FileFormat } from './types.ts';

export const livemcptoolFormat: FileFormat<'livemcptool'> = {
  format: 'livemcptool',
  input: 'file',
  description: 'LiveMCPTool: the upstream marketplace JSON array, or the flattened object with tool_count/server_count + tools',
  expects: 'LiveMCPTool (flattened or marketplace array)',
  sniff: (data) => isMarketplaceShape(data) || isLiveMcpToolFlatShape(data),
  load: (path, data) => (Array.isArray(data) ? loadLiveMcpToolMarketplace(path, data).corpus : loadLiveMcpToolFlat(path, data)),
};
