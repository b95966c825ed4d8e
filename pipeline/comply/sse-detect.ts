/** Deprecated HTTP+SSE detection: GET the URL; a first SSE event named "endpoint" gives the POST URI. */
export async function detectLegacySse(url: string, headers: Record<string, string>, timeoutMs: number): Promise<string | null> {
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), Math.min(timeoutMs, 5000));
  try {
    const res = await fetch(url, { headers: { ...headers, Accept: 'text/event-stream' }, signal: ac.signal });
    if (!res.ok || !(res.headers.get('content-type') ?? '').includes('text/event-stream') || !res.body) return null;
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    while (buf.length < 65536) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      const end = buf.search(/\r?\n\r?\n/);
      if (end >= 0) {
        const ev = buf.slice(0, end);
        await reader.cancel().catch(() => {});
        if (!/^event:\s*endpoint\s*$/m.test(ev)) return null;
        return ev.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('');
      }
    }
    await reader.cancel().catch(() => {});
    return null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
