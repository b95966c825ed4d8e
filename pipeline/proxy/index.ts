/**
 * Reference discovery proxy: public API (see README.md).
 *
 *   const p = await startProxy(loadProxyConfig('proxy.json'), { transport: 'http', port: 0 });
 *   p.url, p.apiKey, p.toolCount(), p.upstreamStatus(); await p.close();
 */
export { startProxy, API_KEY_ENV } from './server.ts';
export type { StartProxyOptions, ProxyHandle } from './server.ts';
export { loadProxyConfig, validateProxyConfig, targetOf, CONFIG_DEFAULTS } from './config.ts';
export type { ProxyConfig, UpstreamConfig, StdioServerConfig, RemoteServerConfig, RestartPolicy } from './config.ts';
export type { UpstreamStatus, UpstreamState } from './upstream.ts';
export { USAGE_INSTRUCTIONS, firstSentence } from './result-shapes.ts';
export { PROXY_TOOL_DESCRIPTIONS, PROXY_SERVER_INFO, proxyToolSchemas } from './serve.ts';
