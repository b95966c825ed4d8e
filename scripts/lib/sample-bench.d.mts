/** test/data/NAME.json -> test/data/NAME.per_query.parquet: where a committed sample keeps its per-query table. */
export function sampleQueryTable(reportJson: string): string;
/** The per-query Parquet file of a report, relative to its report.json, from the report's `tables` index. */
export function benchQueryTable(report: { tables?: { per_query?: { parquet?: string } } }): string;
/** The committed sample report laid out as a bench writes it; returns the report.json path inside `into`. */
export function sampleBenchDir(root: string, into: string): string;
/** `mcpgauge bench` arguments (without --out) of test/data/report.json. */
export const SAMPLE_ARGS: string[];
/** `mcpgauge bench` arguments (without --out) of test/data/report-systems.json. */
export const SYSTEMS_SAMPLE_ARGS: string[];
