export const UNIT: string[];
export const UNIT_FORBIDDEN: RegExp[];
export function importsOf(text: string): string[];
export function unitViolations(root: string, files?: readonly string[]): string[];
