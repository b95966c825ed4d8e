/**
 * The matrix: upstream fixture transport x protocol era, as data. A transport carries both eras
 * where the fixture serves both on it; streamable HTTP stateful is legacy-only (2026-07-28 has
 * no sessions: a modern request there is served statelessly, i.e. the stateless cell).
 */
import { LEGACY_REVISION as L, MODERN_REVISION as M, type PinnedProtocol, type Revision } from '../mcp/protocol.ts';

export type FixtureTransport = 'stdio' | 'http-stateful' | 'http-stateless' | 'sse' | 'docker';
/** a cell's era is named by its revision */
export type Era = Revision;

export interface CellDef {
  /** "<transport>/<era>", the key in gate.config.json */
  id: string;
  transport: FixtureTransport;
  era: Era;
  title: string;
  /**
   * a network cell: the fixture behind toxiproxy, and the network steps (steps/index.ts
   * NETWORK_STEPS) instead of the main ones; selected by config `network.enabled` or `--network`
   */
  network?: true;
}

const cell = (transport: FixtureTransport, era: Era, title: string): CellDef => ({ id: `${transport}/${era}`, transport, era, title });
/** a network cell over an HTTP upstream transport: id `net:<transport>/<era>` */
const netCell = (transport: 'http-stateful' | 'http-stateless' | 'sse', era: Era): CellDef => ({
  id: `net:${transport}/${era}`,
  transport,
  era,
  title: `${transport} ${era} behind toxiproxy (network faults)`,
  network: true,
});

export const CELLS: readonly CellDef[] = [
  cell('stdio', L, `fixture over stdio, ${L} wire`),
  cell('stdio', M, `fixture over stdio, ${M} wire`),
  cell('http-stateful', L, `streamable HTTP with sessions, ${L}`),
  cell('http-stateless', L, `streamable HTTP stateless, ${L}`),
  cell('http-stateless', M, `streamable HTTP stateless, ${M}`),
  cell('sse', L, `legacy HTTP+SSE, ${L}`),
  cell('sse', M, `legacy HTTP+SSE, ${M}`),
  cell('docker', L, 'fixture image over stdio (docker run -i)'),
  // the HTTP upstream transports behind a real fault proxy, one era each (the faults sit on the
  // wire, below the protocol; the stateless one on the modern wire, the others on the legacy one)
  netCell('http-stateless', M),
  netCell('http-stateful', L),
  netCell('sse', L),
];

/** the network cells' ids (config `network`, `--network`) */
export const NETWORK_CELL_IDS: readonly string[] = CELLS.filter((c) => c.network).map((c) => c.id);

export const CELL_IDS: readonly string[] = CELLS.map((c) => c.id);

/** File-system safe form of a cell id (logs folder). */
export function cellSlug(id: string): string {
  return id.replace(/[^A-Za-z0-9.-]+/g, '_');
}

/** The proxy's protocol choice towards an upstream of this era. */
export function protocolOf(era: Era): PinnedProtocol {
  return era === M ? M : 'legacy';
}
