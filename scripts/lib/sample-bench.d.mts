/** The committed sample report laid out as a bench writes it; returns the report.json path inside `into`. */
export function sampleBenchDir(root: string, into: string): string;
/** `mcpgauge bench` arguments (without --out) of test/data/report.json. */
export const SAMPLE_ARGS: string[];
/** `mcpgauge bench` arguments (without --out) of test/data/report-systems.json. */
export const SYSTEMS_SAMPLE_ARGS: string[];
