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
  /** Stops listening and drops open connections (SSE streams included). */
  close(): Promise<void>;
}

export type ServeAdapter = (fetch: FetchHandler, options: ServeOptions) => Promise<Served>;

export function urlOf(hostname: string, port: number): string {
  const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  return `http://${host}:${port}`;
}
