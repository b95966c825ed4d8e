export const BUILD_STAMP: string;
export function buildInputs(root: string): string[];
export function sourcesHash(root: string): string;
