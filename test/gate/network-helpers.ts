/** The network cells' tests: whether toxiproxy can be had on this machine (cached build or Go). */
import { existsSync } from 'node:fs';
import { TOXIPROXY_BIN, TOXIPROXY_VERSION, findGo } from '../../pipeline/gate/network/toxiproxy.ts';

/** undefined when the network cells can run here; else why not (the tests skip with it). */
export const NO_TOXIPROXY: string | undefined =
  existsSync(TOXIPROXY_BIN) || findGo()
    ? undefined
    : `toxiproxy ${TOXIPROXY_VERSION} is not built (${TOXIPROXY_BIN}) and Go is missing: the network cells cannot run here`;

export const NET_CELLS = ['net:http-stateless/2026-07-28', 'net:http-stateful/2025-11-25', 'net:sse/2025-11-25'] as const;
