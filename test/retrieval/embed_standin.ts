/**
 * A stand-in embeddings server for tests, on 127.0.0.1 (port 0): a deterministic hashed
 * bag-of-words vectoriser (lowercase [a-z0-9]+ words, FNV-1a into DIM buckets, count per
 * bucket). Answers OpenAI-compatible POST /v1/embeddings and Ollama POST /api/embed; records
 * every request (path, batch size, Authorization header) so tests can check batching, caching
 * and the key. `failNext` makes the next request answer HTTP 500. No model, no network.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DIM = 64;

export function hashedVector(text: string): number[] {
  const v = new Array(DIM).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193) >>> 0;
    v[h % DIM] += 1;
  }
  return v;
}

export interface StandIn {
  base: string;
  requests: { path: string; inputs: number; auth: string | undefined }[];
  failNext(): void;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const requests: StandIn['requests'] = [];
  let fail = false;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { model, input } = JSON.parse(body) as { model: string; input: string[] };
      requests.push({ path: req.url ?? '', inputs: input.length, auth: req.headers.authorization });
      if (fail) {
        fail = false;
        res.writeHead(500, { 'content-type': 'text/plain' }).end('model overloaded');
        return;
      }
      const vs = input.map(hashedVector);
      const out =
        req.url === '/api/embed'
          ? { model, embeddings: vs }
          : { object: 'list', model, data: vs.map((embedding, index) => ({ object: 'embedding', index, embedding })) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    failNext: () => (fail = true),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
