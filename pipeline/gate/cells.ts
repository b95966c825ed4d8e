/**
 * The matrix: upstream fixture transport x protocol era, as data. A transport carries both eras
 * where the fixture serves both on it; streamable HTTP stateful is legacy-only (2026-07-28 has
 * no sessions: a modern request there is served statelessly, i.e. the stateless cell).
 */
export type FixtureTransport = 'stdio' | 'http-stateful' | 'http-stateless' | 'sse' | 'docker';
export type Era = '2025-11-25' | '2026-07-28';

export interface CellDef {
  /** "<transport>/<era>", the key in gate.config.json */
  id: string;
  transport: FixtureTransport;
  era: Era;
  title: string;
}

export const CELLS: readonly CellDef[] = [
  { id: 'stdio/2025-11-25', transport: 'stdio', era: '2025-11-25', title: 'fixture over stdio, 2025-11-25 wire' },
  { id: 'stdio/2026-07-28', transport: 'stdio', era: '2026-07-28', title: 'fixture over stdio, 2026-07-28 wire' },
  { id: 'http-stateful/2025-11-25', transport: 'http-stateful', era: '2025-11-25', title: 'streamable HTTP with sessions, 2025-11-25' },
  { id: 'http-stateless/2025-11-25', transport: 'http-stateless', era: '2025-11-25', title: 'streamable HTTP stateless, 2025-11-25' },
  { id: 'http-stateless/2026-07-28', transport: 'http-stateless', era: '2026-07-28', title: 'streamable HTTP stateless, 2026-07-28' },
  { id: 'sse/2025-11-25', transport: 'sse', era: '2025-11-25', title: 'legacy HTTP+SSE, 2025-11-25' },
  { id: 'sse/2026-07-28', transport: 'sse', era: '2026-07-28', title: 'legacy HTTP+SSE, 2026-07-28' },
  { id: 'docker/2025-11-25', transport: 'docker', era: '2025-11-25', title: 'fixture image over stdio (docker run -i)' },
];

export const CELL_IDS: readonly string[] = CELLS.map((c) => c.id);

/** File-system safe form of a cell id (logs folder). */
export function cellSlug(id: string): string {
  return id.replace(/[^A-Za-z0-9.-]+/g, '_');
}

/** The proxy's protocol choice towards an upstream of this era. */
export function protocolOf(era: Era): 'legacy' | '2026-07-28' {
  return era === '2026-07-28' ? '2026-07-28' : 'legacy';
}
