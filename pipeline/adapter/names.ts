/**
 * Which name a proxy uses for an upstream tool. Discovery proxies name tools in their search
 * results (`server:tool` for the reference proxy); pass-through gateways list upstream tools
 * directly, often prefixed (`server__tool`, `server.tool`, `server-tool`) or, fronting a single
 * upstream, unchanged. A tool map entry wins; otherwise match by suffix.
 */

export interface NameMatch {
  name: string | null;
  /** how it matched, or why not */
  how: string;
}

function endsWithTool(candidate: string, tool: string): boolean {
  if (candidate === tool) return true;
  if (!candidate.endsWith(tool)) return false;
  const before = candidate[candidate.length - tool.length - 1];
  return before !== undefined && !/[A-Za-z0-9]/.test(before);
}

/**
 * The name among `names` that stands for upstream `server`'s `tool`:
 * tool map, exact `server:tool`, else the one name ending in `tool` (after a separator) that
 * contains `server`, else (single-upstream gateways) a name equal to `tool` when it is the only candidate.
 */
export function matchToolName(names: readonly string[], server: string, tool: string, toolMap: Record<string, string> = {}): NameMatch {
  const mapped = toolMap[`${server}:${tool}`];
  if (mapped !== undefined)
    return names.includes(mapped)
      ? { name: mapped, how: 'tool map' }
      : { name: null, how: `tool map names ${JSON.stringify(mapped)}, which the proxy does not offer` };
  if (names.includes(`${server}:${tool}`)) return { name: `${server}:${tool}`, how: 'exact server:tool' };
  const cands = [...new Set(names.filter((n) => endsWithTool(n, tool)))];
  const withServer = cands.filter((n) => n.includes(server));
  if (withServer.length === 1) return { name: withServer[0], how: 'suffix + server name' };
  if (withServer.length > 1) {
    // prefer the shortest (e.g. "a__echo" over "a__b__echo")
    const sorted = [...withServer].sort((x, y) => x.length - y.length);
    if (sorted[0].length < sorted[1].length) return { name: sorted[0], how: 'suffix + server name (shortest)' };
    return { name: null, how: `ambiguous: ${withServer.join(', ')}` };
  }
  if (cands.length === 1 && cands[0] === tool) return { name: tool, how: 'unprefixed (single upstream)' };
  return {
    name: null,
    how: cands.length ? `no name for ${server}:${tool} among ${cands.join(', ')}` : `no name ends in ${JSON.stringify(tool)}`,
  };
}
