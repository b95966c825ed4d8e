import type { Command } from 'commander';

/** Registers `mcpgauge bench` (being built; see the issue tracker). */
export function register(program: Command): void {
  void program;
}
