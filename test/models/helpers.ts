// Shared bits of the provider tests: draining a stream, recording retry waits.
import type { ModelEvent, ModelRequest } from '../../host/models/types.js';

export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'Be brief.',
    messages: [{ role: 'user', content: 'Hello' }],
    tools: [],
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** Retry options that record the requested waits instead of sleeping. */
export function recordingRetry(maxRetries = 2): { waits: number[]; retry: { maxRetries: number; random: () => number; sleep: (ms: number) => Promise<void> } } {
  const waits: number[] = [];
  return {
    waits,
    retry: { maxRetries, random: () => 0.5, sleep: async (ms: number) => void waits.push(ms) },
  };
}

export function text(events: ModelEvent[]): string {
  return events.flatMap((e) => (e.type === 'text.delta' ? [e.text] : [])).join('');
}

export function last(events: ModelEvent[]): ModelEvent | undefined {
  return events[events.length - 1];
}

/** A fetch whose response body arrives one byte per chunk: every UTF-8 sequence and JSON token is split. */
export function byteByByteFetch(body: string): typeof fetch {
  return async () => {
    const bytes = new TextEncoder().encode(body);
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < bytes.length) controller.enqueue(bytes.subarray(i, ++i));
        else controller.close();
      },
    });
    return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
  };
}
