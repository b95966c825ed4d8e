/** Probes of the resources checks: the lists, a read, the second page, and (2025-11-25) subscribe then unsubscribe. */
import { L, listOf, nextPage, req, type Probe, type ProbeCtx } from './kit.ts';

/** the first listed resource, when the server declares resources.subscribe */
function subscribeUri(c: ProbeCtx): string | undefined {
  const res = (c.result('handshake')?.capabilities as { resources?: { subscribe?: unknown } } | undefined)?.resources;
  const uri = listOf(c, 'resources-list', 'resources').find((r) => typeof r.uri === 'string')?.uri;
  return res?.subscribe === true && typeof uri === 'string' ? uri : undefined;
}

export const RESOURCES_PROBES: readonly Probe[] = [
  { id: 'resources-list', stage: 2, build: (c) => req(c, 'resources/list') },
  { id: 'templates-list', stage: 2, build: (c) => req(c, 'resources/templates/list') },
  {
    id: 'resources-read',
    stage: 3,
    build: (c) => {
      const r = listOf(c, 'resources-list', 'resources').find((x) => typeof x.uri === 'string');
      return r ? req(c, 'resources/read', { uri: r.uri }) : null;
    },
  },
  { id: 'resources-list-page2', stage: 3, build: (c) => nextPage(c, 'resources-list', 'resources/list') },
  // 2025-11-25 resource subscriptions (sent only when resources.subscribe is declared): subscribe, then unsubscribe
  {
    id: 'subscribe',
    stage: 3,
    revisions: L,
    build: (c) => (subscribeUri(c) ? req(c, 'resources/subscribe', { uri: subscribeUri(c) }) : null),
  },
  {
    id: 'unsubscribe',
    stage: 4,
    revisions: L,
    build: (c) => (subscribeUri(c) && c.result('subscribe') ? req(c, 'resources/unsubscribe', { uri: subscribeUri(c) }) : null),
  },
];
