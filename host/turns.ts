/**
 * Work that takes turns: at most `running` at once and, when each turn says
 * what it weighs (bytes it holds), at most `maxWeight` together; at most
 * `waiting` in line behind them (past that, `full()` is thrown at once), in
 * order, each waiter giving its place up when its signal aborts. One
 * implementation for every bounded fan-out: `POST /plugins` loads
 * (server/plugin-loads.ts), MCP tool calls (mcp/server.ts) and the sandbox's
 * off-thread load jobs (sandbox/job-queue.ts).
 */
export class Turns {
  #running = 0;
  #weight = 0;
  readonly #waiting: { weight: number; start: () => void }[] = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
    private readonly full: () => Error,
    /** What the running turns may weigh together; one heavier than this alone still runs, alone. */
    readonly maxWeight = Infinity,
  ) {}

  /** Turns running now. */
  get active(): number {
    return this.#running;
  }

  /** What the running turns weigh together now. */
  get weight(): number {
    return this.#weight;
  }

  /** Waits for a turn; resolves with its release (call it once, when the work ends). */
  async take(signal?: AbortSignal, weight = 0): Promise<() => void> {
    signal?.throwIfAborted();
    // In order: nobody passes a waiter, not even one light enough to fit beside the running ones.
    if (this.#waiting.length === 0 && this.#fits(weight)) this.#start(weight);
    else if (this.#waiting.length >= this.waiting) throw this.full();
    else {
      await new Promise<void>((resolve, reject) => {
        const waiter = {
          weight,
          start: () => {
            signal?.removeEventListener('abort', leave);
            resolve();
          },
        };
        const leave = () => {
          const at = this.#waiting.indexOf(waiter);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(signal?.reason);
          // The first in line left: the next may fit now.
          this.#next();
        };
        this.#waiting.push(waiter);
        signal?.addEventListener('abort', leave, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      this.#weight -= weight;
      this.#next();
    };
  }

  #fits(weight: number): boolean {
    return this.#running < this.running && (this.#running === 0 || this.#weight + weight <= this.maxWeight);
  }

  #start(weight: number): void {
    this.#running++;
    this.#weight += weight;
  }

  #next(): void {
    for (let first = this.#waiting[0]; first && this.#fits(first.weight); first = this.#waiting[0]) {
      this.#waiting.shift();
      this.#start(first.weight);
      first.start();
    }
  }
}
