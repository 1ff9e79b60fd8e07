/**
 * A push-to-pull channel: the producer `push`es without waiting, the consumer
 * iterates with `for await`. Used by `session.stream()`.
 */

export interface Channel<T> extends AsyncIterable<T> {
  push(value: T): void;
  /** Ends the iteration after the values already pushed. */
  end(): void;
}

/**
 * @param onReturn called once if the consumer stops early (break/throw in `for await`).
 * @example
 * const ch = channel<number>();
 * ch.push(1); ch.end();
 * for await (const n of ch) console.log(n);
 */
export function channel<T>(onReturn?: () => void): Channel<T> {
  const buffer: T[] = [];
  let head = 0;
  let ended = false;
  let waiting: ((r: IteratorResult<T>) => void) | undefined;
  let iterated = false;

  const done = (): IteratorResult<T> => ({ done: true, value: undefined });

  return {
    push(value) {
      if (ended) return;
      if (waiting) {
        const w = waiting;
        waiting = undefined;
        w({ done: false, value });
      } else buffer.push(value);
    },
    end() {
      ended = true;
      if (waiting) {
        const w = waiting;
        waiting = undefined;
        w(done());
      }
    },
    [Symbol.asyncIterator](): AsyncIterator<T> {
      if (iterated) throw new TypeError('this stream can be iterated only once');
      iterated = true;
      return {
        next() {
          if (head < buffer.length) {
            const value = buffer[head] as T;
            buffer[head++] = undefined as T;
            if (head === buffer.length) {
              buffer.length = 0;
              head = 0;
            }
            return Promise.resolve({ done: false, value });
          }
          if (ended) return Promise.resolve(done());
          return new Promise((resolve) => (waiting = resolve));
        },
        return() {
          if (!ended) {
            ended = true;
            buffer.length = 0;
            onReturn?.();
          }
          return Promise.resolve(done());
        },
      };
    },
  };
}
