/** Reading an exchange's answer (a leaf module: evidence, gather and checks import it, it imports no probe list). */
import type { Obj } from './request-builder.ts';
import type { Exchange } from '../types.ts';
import { isResponse } from '../wire/types.ts';

/** The first JSON-RPC response in an exchange. */
export function replyOf(ex: Exchange | undefined): Obj | undefined {
  return ex?.response?.messages.find((m) => isResponse(m)) as Obj | undefined;
}
