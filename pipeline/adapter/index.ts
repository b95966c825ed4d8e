/**
 * Proxy adapter: how the gate and the live stage reach and drive any proxy under test
 * (see README.md in this folder).
 */
export { ADAPTER_DEFAULTS, ADAPTER_FLAGS, STYLE_CHOICES, adapterOptionsFromFlags, validateToolMap } from './options.ts';
export type { AdapterOptions, AdapterFlag, DiscoveryArgNames, ProxyStyle, StyleChoice } from './options.ts';
export { splitCommandLine, commandTarget, urlTarget } from './proxy-target.ts';
export { fillCommand, fillConfig, fillText, placeholdersIn, redact, shellLine, shellQuote } from './template.ts';
export type { PlaceholderValues } from './template.ts';
export { freePort, reservePort, launchProxy, commandParts } from './launch.ts';
export type { ProxySpec, RunningProxy, ExitInfo, LaunchContext } from './launch.ts';
export { matchToolName } from './names.ts';
export type { NameMatch } from './names.ts';
export { openProxySession, detectStyle } from './session.ts';
export type { ProxySession, SessionOptions, CallOptions, DiscoverResult } from './session.ts';
export { TRANSPORT_CHOICES, DEFAULT_PATHS, parseTransport, endpointTemplate, httpTarget } from './transport.ts';
export type { ProxyTransport, TransportChoice } from './transport.ts';
export { loadPreset, presetSpec, presetAdapter, runtimeValues, npmBin, LOOPBACK_GUARD } from './preset-file.ts';
export { presetNames, PRESETS_DIR } from './preset-names.ts';
export type { Preset } from './preset-file.ts';
