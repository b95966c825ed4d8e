import type { Command } from 'commander';

/** Registers `mcpgauge fixture` (being built; see the issue tracker). */
export function register(program: Command): void {
  void program;
}
