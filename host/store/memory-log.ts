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

  async since(afterId: string, maxBytes = Infinity): Promise<Since> {
    const parsed = parseEventId(afterId);
    const after = parsed && parsed.epoch === this.epoch && !parsed.position.includes('-') ? Number(parsed.position) : undefined;
    const oldest = this.#ring.oldestPosition;
    if (after === undefined || after > this.#ring.lastPosition) {
      const { entries } = this.#ring.since(this.#ring.newestFrom(oldest, maxBytes) - 1);
      return { kind: 'gap', entries, oldest: entries[0]?.id ?? null, missed: null, reason: 'unknown-id' };
    }
    const wanted = Math.max(oldest, after + 1);
    // Read newest first, up to maxBytes: an old id costs what the client can take, not the window.
    const from = this.#ring.newestFrom(wanted, maxBytes);
    const { entries } = this.#ring.since(from - 1);
    // Evicted, and maybe cut by maxBytes too: `missed` counts both (every event after `after` that is not in `entries`).
    if (after + 1 < oldest) return { kind: 'gap', entries, oldest: this.#ring.idAt(oldest), missed: from - after - 1, reason: 'evicted' };
    if (from > wanted) return { kind: 'gap', entries, oldest: entries[0]?.id ?? null, missed: from - wanted, reason: 'over-limit' };
    return { kind: 'ok', entries };
  }

  compare(a: string, b: string): number {
    return comparePositions(a.slice(a.indexOf('.') + 1), b.slice(b.indexOf('.') + 1));
  }

  async drain(): Promise<void> {}

  async close(): Promise<void> {
    this.#subscribers.clear();
  }
}
