/**
 * The plugin's Extism variables (`var_get`/`var_set`), kept by us instead of
 * Extism so that every byte is counted: keys and values both count toward
 * `maxVarBytes`, their number toward `maxVars`, and a request is refused
 * before its bytes are copied or its key decoded.
 */
import { HostRefusal } from './failures.js';
import type { Limits } from './types.js';

interface Entry {
  /** The key's UTF-8 length as the plugin wrote it. */
  keyBytes: number;
  value: Uint8Array;
}

export class VarStore {
  readonly #vars = new Map<string, Entry>();
  #bytes = 0;

  constructor(private readonly limits: Pick<Limits, 'maxVarBytes' | 'maxVars'>) {}

  /** Bytes held (keys plus values). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#vars.size;
  }

  get(key: string): Uint8Array | undefined {
    return this.#vars.get(key)?.value;
  }

  /**
   * Refuse a `var_set` whose key alone is beyond the cap, before the key is
   * decoded (an 8 MiB key would otherwise become a 16 MiB string first).
   */
  admitKey(keyBytes: number): void {
    if (keyBytes > this.limits.maxVarBytes) this.#refuse(`a key of ${keyBytes} bytes`, keyBytes);
  }

  /** Store a copy of `value` under `key`; throws `HostRefusal` (MEMORY_LIMIT) past a cap. */
  set(key: string, keyBytes: number, value: Uint8Array): void {
    const old = this.#vars.get(key);
    const freed = old ? old.keyBytes + old.value.byteLength : 0;
    const total = this.#bytes - freed + keyBytes + value.byteLength;
    if (total > this.limits.maxVarBytes) {
      this.#refuse(`a variable of ${keyBytes + value.byteLength} bytes (key and value)`, total);
    }
    if (!old && this.#vars.size >= this.limits.maxVars) {
      throw new HostRefusal(
        'MEMORY_LIMIT',
        `the plugin set more than ${this.limits.maxVars} variables (maxVars); delete one (var_set with value 0) before adding another`,
      );
    }
    this.#vars.set(key, { keyBytes, value: value.slice() });
    this.#bytes = total;
  }

  delete(key: string): void {
    const old = this.#vars.get(key);
    if (!old) return;
    this.#vars.delete(key);
    this.#bytes -= old.keyBytes + old.value.byteLength;
  }

  clear(): void {
    this.#vars.clear();
    this.#bytes = 0;
  }

  #refuse(what: string, total: number): never {
    throw new HostRefusal(
      'MEMORY_LIMIT',
      `the plugin set ${what}, which would hold ${total} bytes of variables, more than maxVarBytes (${this.limits.maxVarBytes}; keys and values both count)`,
    );
  }
}
