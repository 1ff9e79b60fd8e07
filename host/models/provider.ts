/**
 * `providerModel`: the `Model` around a streaming provider's spec (OpenAI,
 * Anthropic). What runs a turn (HTTP with retries, SSE, the provider's
 * decoder: provider-stream.ts and the `*-decoder.ts` files) loads at the
 * model's first turn, so `import 'wasmhooks'` does not parse it for an app
 * that never streams from a provider (the cold start, bench/rows/cold.ts).
 */
import type { PostRequest } from './http.js';
import type { TurnCall, WireDecoder } from './provider-stream.js';
import type { Model, ModelEvent, ModelRequest } from './types.js';

/** What two streaming providers differ in; `providerModel` makes the `Model` around it. */
export interface ProviderSpec extends Omit<PostRequest, 'body' | 'signal'> {
  id: string;
  contextWindow?: number | undefined;
  idleTimeoutMs: number;
  /** The request body for one turn (serialised when `stream()` is called). */
  body(request: ModelRequest): unknown;
  /** A fresh decoder for one turn (its module loads with the first). */
  decoder(): Promise<WireDecoder>;
}

/** A streaming `Model` from a provider's spec: one turn per `stream()` call. */
export function providerModel(spec: ProviderSpec): Model {
  const { id, contextWindow, body, decoder, ...post } = spec;
  return {
    id,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    stream(request: ModelRequest): AsyncIterable<ModelEvent> {
      return turn({ ...post, body: JSON.stringify(body(request)), signal: request.signal }, decoder);
    },
  };
}

async function* turn(call: Omit<TurnCall, 'decoder'>, decoder: ProviderSpec['decoder']): AsyncGenerator<ModelEvent, void, undefined> {
  const [{ streamTurn }, fresh] = await Promise.all([import('./provider-stream.js'), decoder()]);
  yield* streamTurn({ ...call, decoder: fresh });
}
