/** The in-process event log: a ring of the last `capacity` events and a new epoch per process. */
import { Ring, type Entry } from '../server/ring.js';
import type { StreamEvent } from '../server/events.js';
import { comparePositions, newEpoch, parseEventId } from './ids.js';
import type { EventLog, Since } from './types.js';

export class MemoryEventLog implements EventLog {
  readonly epoch = newEpoch();
  readonly #ring: Ring;
  readonly #subscribers = new Set<(entry: Entry) => void>();

  constructor(readonly capacity: number) {
    this.#ring = new Ring(capacity, this.epoch);
  }

  append(event: StreamEvent): void {
    const entry = this.#ring.push(event);
    for (const fn of this.#subscribers) fn(entry);
  }

  subscribe(fn: (entry: Entry) => void): () => void {
    this.#subscribers.add(fn);
    return () => void this.#subscribers.delete(fn);
  }

  lastId(): string {
    return this.#ring.idAt(this.#ring.lastPosition);
  }

  async since(afterId: string): Promise<Since> {
    const parsed = parseEventId(afterId);
    if (!parsed || parsed.epoch !== this.epoch || parsed.position.includes('-')) {
      const all = this.#ring.since(0);
      return { kind: 'gap', entries: all.entries, oldest: all.entries[0]?.id ?? null, missed: null, reason: 'unknown-id' };
    }
    const r = this.#ring.since(Number(parsed.position));
    if (r.kind === 'ok') return r;
    return { kind: 'gap', entries: r.entries, oldest: this.#ring.idAt(r.oldest), missed: r.missed, reason: r.missed === null ? 'unknown-id' : 'evicted' };
  }

  compare(a: string, b: string): number {
    return comparePositions(a.slice(a.indexOf('.') + 1), b.slice(b.indexOf('.') + 1));
  }

  async drain(): Promise<void> {}

  async close(): Promise<void> {
    this.#subscribers.clear();
  }
}
