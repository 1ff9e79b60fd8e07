/**
 * How many `POST /plugins` loads run at once. A load reads up to 64 MiB (a file or a download) and holds
 * about twice that while it joins and hashes the bytes, for up to a minute (a slow download, a FIFO whose
 * writer is idle), and it goes on when its client leaves: without a bound, N requests naming a large file
 * held N × 128 MiB (review rv9), whatever `maxConnections` and `bodyBytesInFlight` say. Past the running
 * ones a few wait their turn; past those the answer is 503 at once.
 */
import { ApiError } from './errors.js';

/** Loads at once, and loads waiting for a turn. */
const RUNNING = 2;
const WAITING = 16;

export class PluginLoadGate {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running < RUNNING) this.#running++;
    else if (this.#waiting.length >= WAITING) {
      throw new ApiError('unavailable', `${RUNNING} plugin loads are running and ${WAITING} are waiting; retry shortly`);
    } else {
      // The turn is handed over by the load that ends (the running count stays as it is).
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
