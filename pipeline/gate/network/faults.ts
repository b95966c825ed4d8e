/**
 * The network faults of the network cells, as data: one entry per fault, each run as one step
 * (`net-<name>`, steps/network.ts) of every network cell. An entry says which toxics toxiproxy
 * sets on the link between the proxy under test and its fixture, which call the gate makes
 * through the proxy while they are set, and what a correct proxy answers: a well-formed error
 * within the call timeout (+ margin), or, for latency within the timeout, the result. Attributes
 * scale with the gate's call-timeout policy (`timeouts.proxy_call_timeout_ms`), so a config with
 * another policy still puts "beyond" beyond it and "within" within it.
 * A new fault = one entry here + its `net-<name>` in the `steps` enum of
 * datasets/schemas/gate.config.schema.json (test/gate/config.test.ts holds them equal).
 * Its place in the list does not change its verdict (steps/network.ts drains the link after each).
 */
import type { Toxic } from './toxiproxy.ts';

export interface NetworkFault {
  /** the step name is `net-<name>` */
  name: string;
  title: string;
  /** what the fault stands for, in the words of the people who meet it */
  means: string;
  /** the toxics set, in order (toxiproxy chains them in that order), given the call timeout */
  toxics(callTimeoutMs: number): Toxic[];
  /** the call made through the proxy while the toxics are set (a tool of the fixture) */
  call: { tool: 'echo' | 'large'; args: Record<string, unknown> };
  /** error: a tool error or JSON-RPC error within the call timeout + margin; success: the result, slower by the latency */
  expect: 'error' | 'success';
}

const toxic = (type: Toxic['type'], stream: Toxic['stream'], attributes: Record<string, number>): Toxic => ({
  name: `gate_${type}_${stream}`,
  type,
  stream,
  toxicity: 1,
  attributes,
});

export const NETWORK_FAULTS: readonly NetworkFault[] = [
  {
    name: 'latency-beyond',
    title: 'latency beyond the call timeout ends in an error in time',
    means: 'a slow link: every response chunk from the upstream arrives 2 x the call timeout late',
    toxics: (t) => [toxic('latency', 'downstream', { latency: 2 * t, jitter: 0 })],
    call: { tool: 'echo', args: {} },
    expect: 'error',
  },
  {
    name: 'latency-within',
    title: 'latency within the call timeout still succeeds',
    means: 'a slow but working link: responses arrive a quarter of the call timeout late',
    toxics: (t) => [toxic('latency', 'downstream', { latency: Math.round(t / 4), jitter: 0 })],
    call: { tool: 'echo', args: {} },
    expect: 'success',
  },
  {
    name: 'reset-peer',
    title: 'a reset in mid-response ends in an error',
    // toxiproxy's reset_peer waits for the first response bytes, drops them and resets (RST) the
    // connection after `timeout` ms: the upstream answered, its answer never arrives
    means: 'the upstream answered, then the connection was reset (TCP RST) while its answer was in flight',
    toxics: () => [toxic('reset_peer', 'downstream', { timeout: 200 })],
    call: { tool: 'echo', args: {} },
    expect: 'error',
  },
  {
    name: 'timeout',
    title: 'a half-open peer that never answers ends in an error in time',
    // timeout 0: toxiproxy accepts, holds every byte and never closes until the toxic is removed
    means: 'the upstream accepts the connection and never answers (a half-open peer)',
    toxics: () => [toxic('timeout', 'upstream', { timeout: 0 })],
    call: { tool: 'echo', args: {} },
    expect: 'error',
  },
  {
    name: 'limit-data',
    title: 'a body cut short ends in an error',
    means: 'the connection closes after the first 1 KiB of a 64 KiB answer',
    toxics: () => [toxic('limit_data', 'downstream', { bytes: 1024 })],
    call: { tool: 'large', args: { bytes: 65_536 } },
    expect: 'error',
  },
  {
    name: 'slow-close',
    title: 'a cut body whose close is delayed ends in an error in time',
    // slow_close alone is harmless to a keep-alive client (it never waits for a close); what users
    // meet is an answer that stops and a peer that keeps the socket open: limit_data, then the
    // close delayed 2 x the call timeout
    means: 'the answer stops after 1 KiB and the peer keeps the socket open 2 x the call timeout before closing',
    toxics: (t) => [toxic('limit_data', 'downstream', { bytes: 1024 }), toxic('slow_close', 'downstream', { delay: 2 * t })],
    call: { tool: 'large', args: { bytes: 65_536 } },
    expect: 'error',
  },
];

export const NETWORK_STEP_PREFIX = 'net-';
