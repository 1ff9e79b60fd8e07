/**
 * The sessions one host has started or resumed: what tells a session continued by another
 * process (a restart on a data directory, another replica on Redis: SessionStart `resume`)
 * from one this host rebuilds from its own store (a shared store's session is rebuilt for
 * every prompt; `host.resume` of a session the app already ran here): no second start.
 */

/**
 * Ids remembered, per host. Past it the oldest is forgotten: a host that ran more sessions
 * than this fires `resume` again for one of the oldest, if it ever comes back (an extra start,
 * never a missing one), and memory stays bounded (~100 bytes an id) on a long-running server.
 */
const OPENED_SESSIONS_MAX = 100_000;

export class OpenedSessions {
  // A Set iterates in insertion order: its first value is the oldest.
  readonly #ids = new Set<string>();

  constructor(private readonly max = OPENED_SESSIONS_MAX) {}

  /** Marks `id` as open in this host; whether it was not already (so its SessionStart is due). */
  open(id: string): boolean {
    if (this.#ids.has(id)) return false;
    if (this.#ids.size >= this.max) this.#ids.delete(this.#ids.values().next().value!);
    this.#ids.add(id);
    return true;
  }
}
