/**
 * How many `POST /plugins` loads run at once. A load reads up to 64 MiB (a file or a download) and holds
 * about twice that while it joins and hashes the bytes: without a bound, N requests naming a large file
 * held N × 128 MiB (review rv9), whatever `maxConnections` and `bodyBytesInFlight` say. Past the running
 * ones a few wait their turn; past those the answer is 503 at once. A load stops when its client leaves
 * (waiting or running), and holds a slot for at most `LOAD_SLOT_MS` (before: a FIFO whose writer idled
 * held one for 60 s, and a load went on after its client left; fix3).
 */
import { Turns } from '../turns.js';
import { ApiError } from './errors.js';

/** Loads at once, and loads waiting for a turn. */
const RUNNING = 2;
const WAITING = 16;
/** The longest a load may hold a slot (a FIFO whose writer idles, a slow download): it is then stopped. */
const LOAD_SLOT_MS = 30_000;

export class PluginLoadGate {
  readonly #turns = new Turns(RUNNING, WAITING, () => new ApiError('unavailable', `${RUNNING} plugin loads are running and ${WAITING} are waiting; retry shortly`));

  constructor(private readonly slotMs = LOAD_SLOT_MS) {}

  /**
   * Runs `work` in a slot with a signal that ends it when `client` aborts (the request is gone) or after
   * `slotMs`; a load still waiting for a turn when its client leaves gives its place up.
   */
  async run<T>(work: (signal: AbortSignal) => Promise<T>, client?: AbortSignal): Promise<T> {
    const release = await this.#turns.take(client);
    const slot = new AbortController();
    // A TimeoutError, so that a load still waiting behind other large loads (sandbox/job-queue.ts) is answered 503 busy.
    const timedOut = () => new DOMException(`the load held a plugin-load slot for ${this.slotMs} ms (a FIFO whose writer idles, a slow download)`, 'TimeoutError');
    const timer = setTimeout(() => slot.abort(timedOut()), this.slotMs);
    const leave = () => slot.abort(new Error('its HTTP client left'));
    if (client?.aborted) leave();
    else client?.addEventListener('abort', leave, { once: true });
    try {
      return await work(slot.signal);
    } finally {
      clearTimeout(timer);
      client?.removeEventListener('abort', leave);
      release();
    }
  }
}
