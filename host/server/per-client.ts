/**
 * Per-client caps (review red18). `maxSessions` and `maxSseClients` bound
 * the server as a whole, so one client could take all of either and lock
 * every other out: 1,000 streams from one address, or 10,000
 * `POST /session` in a loop. What each remote address holds is counted
 * here, one implementation for streams and sessions; past its cap a
 * request is `429 too_many_requests` naming the cap. A client is its
 * address (`clientOf`): behind a proxy every client shares the proxy's, so
 * the proxy must bound per client itself.
 */
import { v4Number, v6Bytes } from '../plugins/ip-address.js';
import { ApiError } from './errors.js';

/** What every address of this machine counts as: a local process may connect from any of 127.0.0.0/8 (and ::1). */
const LOOPBACK = 'loopback';
/** IPv6 addresses are counted by their first 56 bits: a subscriber is delegated a /56 or more, a host a /64 at least. */
const V6_PREFIX_BYTES = 7;

/**
 * The client an address belongs to, as the caps count it: the range its owner can pick a source address from,
 * not the address itself (review rhttp). Counted by address, one process connecting from 127.0.0.2, 127.0.0.3, …
 * (any of 127.0.0.0/8 works on Linux, no set-up) or one IPv6 host from the 2^64 addresses of its own /64 had a cap
 * per address, and took every stream of `maxSseClients`. An IPv4-mapped IPv6 address is its IPv4 address.
 */
export function clientKey(address: string): string {
  const bare = address.replace(/%.*$/, '');
  const v4 = v4Number(bare);
  if (v4 !== undefined) return v4 >>> 24 === 127 ? LOOPBACK : bare;
  const b = v6Bytes(bare);
  if (b === undefined) return address;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 255 && b[11] === 255) return clientKey(b.slice(12).join('.'));
  if (zeros(0, 15) && b[15] === 1) return LOOPBACK;
  const kept = b.map((x, i) => (i < V6_PREFIX_BYTES ? x : 0));
  const groups = [0, 2, 4, 6].map((i) => (((kept[i] as number) << 8) | (kept[i + 1] as number)).toString(16));
  return `${groups.join(':')}::/${V6_PREFIX_BYTES * 8}`;
}

/** The environment a runtime's own server hands a `fetch` handler, for an app embedded without our adapters. */
interface EmbeddedEnv {
  /** Our adapters' `Connection`. */
  remoteAddress?: unknown;
  /** `Deno.serve(handler)`: the handler's `info`. */
  remoteAddr?: { hostname?: unknown };
  /** `Bun.serve({ fetch })`: the server. */
  requestIP?: (request: Request) => { address?: unknown } | null;
  /** `@hono/node-server`'s `serve({ fetch })`: the Node request. */
  incoming?: { socket?: { remoteAddress?: unknown } };
}

/**
 * The client a request comes from (`clientKey` of its remote address), or undefined in-process. Read from our
 * adapters' `Connection`, and from what each runtime's own server passes when the app is embedded as the docs show
 * (`Deno.serve(server.fetch)`, `Bun.serve({ fetch: server.fetch })`, `@hono/node-server`): those carry no
 * `remoteAddress`, so every cap was off there (review rhttp).
 */
export function clientOf(request: Request, env: unknown): string | undefined {
  if (typeof env !== 'object' || env === null) return undefined;
  const e = env as EmbeddedEnv;
  let address: unknown = e.remoteAddress ?? e.remoteAddr?.hostname ?? e.incoming?.socket?.remoteAddress;
  if (address === undefined && typeof e.requestIP === 'function') {
    try {
      address = e.requestIP(request)?.address;
    } catch {
      // A request Bun did not receive (one rebuilt from it): no address, as in-process.
    }
  }
  return typeof address === 'string' && address !== '' ? clientKey(address) : undefined;
}

/** What each address holds, by key (a stream, a session id). */
export class PerClient<K> {
  readonly #held = new Map<string, Set<K>>();
  readonly #address = new Map<K, string>();

  constructor(
    /** The option that sets the cap, for the refusal's message. */
    private readonly option: string,
    readonly cap: number,
    /** What is held, plural ("event streams", "sessions"). */
    private readonly what: string,
  ) {}

  count(address: string): number {
    return this.#held.get(address)?.size ?? 0;
  }

  /** The keys `address` holds (to check again which still exist). */
  keys(address: string): K[] {
    return [...(this.#held.get(address) ?? [])];
  }

  /** Throws the API's 429 when `address` already holds its cap. */
  check(address: string | undefined): void {
    if (address === undefined) return;
    const count = this.count(address);
    if (count < this.cap) return;
    throw new ApiError(
      'too_many_requests',
      `this client (${address}) already holds ${count} ${this.what}, its cap (${this.option}: ${this.cap}); close or delete one and retry`,
    );
  }

  /**
   * Checks `address` against its cap and holds `key` for it, in one step. At the cap, the keys `exists` says
   * are gone (a session another replica deleted) are let go first.
   */
  async admit(address: string | undefined, key: K, exists: (key: K) => Promise<boolean>): Promise<void> {
    if (address === undefined) return;
    if (this.count(address) >= this.cap) {
      const held = this.keys(address);
      const alive = await Promise.all(held.map((k) => exists(k).catch(() => true)));
      held.forEach((k, i) => alive[i] || this.remove(k));
    }
    this.check(address);
    this.add(address, key);
  }

  add(address: string | undefined, key: K): void {
    if (address === undefined) return;
    const set = this.#held.get(address) ?? new Set<K>();
    set.add(key);
    this.#held.set(address, set);
    this.#address.set(key, address);
  }

  remove(key: K): void {
    const address = this.#address.get(key);
    if (address === undefined) return;
    this.#address.delete(key);
    const set = this.#held.get(address);
    set?.delete(key);
    if (set?.size === 0) this.#held.delete(address);
  }
}
