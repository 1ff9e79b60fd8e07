/** The one interface every runtime's HTTP adapter implements. */

export type FetchHandler = (request: Request) => Response | Promise<Response>;

export interface ServeOptions {
  hostname: string;
  /** 0 picks a free port. */
  port: number;
}

/** A listening server. */
export interface Served {
  readonly hostname: string;
  readonly port: number;
  /** `http://host:port`, with IPv6 hosts in brackets. */
  readonly url: string;
  /**
   * Stops listening; responses still being written (an SSE stream's last
   * frames) get a short grace (`GRACE_MS`), then open connections are dropped.
   */
  close(): Promise<void>;
}

/** How long `close()` lets responses in flight finish before it drops their connections. */
export const GRACE_MS = 500;

export type ServeAdapter = (fetch: FetchHandler, options: ServeOptions) => Promise<Served>;

export function urlOf(hostname: string, port: number): string {
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}
