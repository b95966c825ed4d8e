/** The committed sample report laid out as a bench writes it; returns the report.json path inside `into`. */
export function sampleBenchDir(root: string, into: string): string;
