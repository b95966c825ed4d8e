/**
 * A proxy-kind system's block of a side-by-side run: the ordinary live stage (runLive, one block
 * of the same shape as the single `live` section) against it. The kind's `prepare` turns the
 * run's options into options that reach this system (and starts it when the run owns it).
 */
import { runLive, type LiveOptions } from '../live/live-stage.ts';
import type { RunningProxy } from '../adapter/index.ts';
import type { SystemBlock } from '../report/index.ts';
import type { MeasureEnv, SpecOf } from './types.ts';

export type PrepareLive = (opts: LiveOptions) => Promise<{ opts: LiveOptions; running?: RunningProxy }>;

export async function measureLive(spec: SpecOf<string, object>, env: MeasureEnv, prepare: PrepareLive): Promise<SystemBlock> {
  let running: RunningProxy | undefined;
  try {
    const blank: LiveOptions = {
      ...env.base,
      turns: env.turns,
      proxyUrl: undefined,
      proxyCmd: undefined,
      apiKey: undefined,
      upstreamsFile: undefined,
    };
    const p = await prepare(blank);
    running = p.running;
    const live = await runLive(p.opts);
    return { name: spec.name, kind: spec.kind, spec: spec.spec, description: live.target.description, live };
  } finally {
    await running?.stop();
  }
}
