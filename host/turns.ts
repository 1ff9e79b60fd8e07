/**
 * Work that takes turns: at most `running` at once, at most `waiting` in line
 * behind them (past that, `full()` is thrown at once), each waiter giving its
 * place up when its signal aborts. One implementation for every bounded
 * fan-out: `POST /plugins` loads (server/plugin-loads.ts) and MCP tool calls
 * (mcp/server.ts).
 */
export class Turns {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
    private readonly full: () => Error,
  ) {}

  /** Waits for a turn; resolves with its release (call it once, when the work ends). */
  async take(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#running < this.running) this.#running++;
    else if (this.#waiting.length >= this.waiting) throw this.full();
    else {
      // The turn is handed over by the work that ends (the running count stays as it is).
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          const at = this.#waiting.indexOf(turn);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(signal?.reason);
        };
        this.#waiting.push(turn);
        signal?.addEventListener('abort', leave, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    };
  }
}
