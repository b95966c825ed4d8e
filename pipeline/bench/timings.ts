/** Stage timings of the offline stage: wall time and resident memory after each named stage. */

export interface StageTiming {
  stage: string;
  corpus_id?: string;
  ms: number;
  rss_mb: number;
}

/** One timing row for `stage`, measured `ms` long, memory read now. */
export function stageTiming(stage: string, corpusId: string | undefined, ms: number): StageTiming {
  // memoryUsage.rss() reads the resident size only (memoryUsage() also walks the heap: ~1 ms a call)
  return { stage, corpus_id: corpusId, ms, rss_mb: process.memoryUsage.rss() / 1048576 };
}

/** Runs `fn` and appends its timing to `timings` when it resolves. */
export function timed<T>(timings: StageTiming[], stage: string, corpusId: string | undefined, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  return fn().then((v) => {
    timings.push(stageTiming(stage, corpusId, performance.now() - t0));
    return v;
  });
}
