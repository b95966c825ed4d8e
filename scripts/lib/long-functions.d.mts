export const MAX_FUNCTION_LINES: number;
export interface LongFunction {
  name: string;
  line: number;
  lines: number;
}
export function longFunctionsIn(text: string, fileName?: string, max?: number): LongFunction[];
export function longFunctions(root: string, dirs?: string[], max?: number): (LongFunction & { file: string })[];
