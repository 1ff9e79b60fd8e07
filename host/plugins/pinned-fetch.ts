/**
 * A download that connects to one IP address chosen beforehand, whatever
 * the URL's name resolves to by then. `POST /plugins` checks that a name
 * resolves only to public addresses (server/plugin-url.ts); a `fetch` of the
 * URL would resolve the name again, and its owner can answer differently the
 * second time (DNS rebinding: public for the check, 169.254.169.254 for the
 * download). Here no name is resolved at all: the socket goes to `address`,
 * TLS is sent the URL's name (SNI) and checks the certificate against it,
 * and the request's Host header is the URL's host.
 *
 * node:http(s) with an IP `hostname`, `servername` and a `host` header does
 * exactly this on Node, Deno and Bun (test/xrt/server-red9.xrt.ts); a
 * `lookup` option would too, but a runtime that ignored it would resolve the
 * name silently, while an IP literal cannot be resolved to anything else.
 * Loaded only when a pinned download happens: the main entry stays
 * web-standard.
 */
import { WasmhooksError } from '../errors.js';
import { isIpAddress } from './ip-address.js';

/** What fetchWithin needs of the answer: status, headers and a body stream, as a web `Response`. */
export async function fetchPinned(url: string | URL, address: string, signal: AbortSignal): Promise<Response> {
  const target = new URL(String(url));
  if (!isIpAddress(address)) throw new WasmhooksError('INVALID_OPTIONS', `the pinned address ${JSON.stringify(address)} is not an IP address`);
  const secure = target.protocol === 'https:';
  if (!secure && target.protocol !== 'http:') throw new WasmhooksError('INVALID_OPTIONS', `cannot download ${target.protocol} URLs: http(s) only`);
  const mod = secure ? await import('node:https') : await import('node:http');
  const name = target.hostname.replace(/^\[|\]$/g, '');
  signal.throwIfAborted();
  // The abort listener is removed once the promise settles: the signal may outlive this download (a load's
  // deadline covers the plugin and its `.sig`, a caller's signal many loads), and each listener would hold
  // this request, its socket and the answer's body until the signal is collected.
  let onAbort: (() => void) | undefined;
  const settled = new Promise<Response>((resolve, reject) => {
    const request = mod.request(
      {
        hostname: address,
        port: target.port || (secure ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        method: 'GET',
        // One connection for this request only: a pooled socket could have been opened to another address.
        agent: false,
        headers: { host: target.host, accept: '*/*', connection: 'close' },
        // SNI and the certificate check use the URL's name; an IP literal is sent no SNI (RFC 6066) and checked as an IP.
        ...(secure && !isIpAddress(name) ? { servername: name } : {}),
        signal,
      },
      (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (status >= 300 && status < 400 && status !== 304) {
          incoming.destroy();
          reject(new TypeError(`the server answered a redirect (HTTP ${status})`));
          return;
        }
        const headers = new Headers();
        const raw = incoming.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
        const empty = status === 204 || status === 205 || status === 304;
        const body = empty
          ? null
          : new ReadableStream<Uint8Array>({
              start(controller) {
                // A stream the reader cancelled throws on enqueue and close: what still arrives then is dropped (an
                // exception in these listeners would be uncaught).
                const settled = (fn: () => void) => {
                  try {
                    fn();
                  } catch {
                    incoming.destroy();
                  }
                };
                incoming.on('data', (chunk: Uint8Array) =>
                  settled(() => {
                    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
                    // Backpressure: the socket waits while the reader is behind.
                    if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
                  }),
                );
                incoming.on('end', () => settled(() => controller.close()));
                incoming.on('error', (error) => settled(() => controller.error(error)));
                incoming.on('aborted', () => settled(() => controller.error(new Error('the connection closed before the body ended'))));
              },
              pull() {
                incoming.resume();
              },
              cancel() {
                incoming.destroy();
              },
            }, { highWaterMark: 4 });
        if (empty) incoming.resume();
        if (status < 200 || status > 599) {
          incoming.destroy();
          reject(new TypeError(`the server answered HTTP ${status}`));
          return;
        }
        resolve(new Response(body, { status, headers }));
      },
    );
    request.on('error', reject);
    // A 101 answer is no response ('upgrade', which nothing else handles): the request then never settled, past the
    // deadline too (a plugin server held every load it was asked for, and the POST /plugins behind it, forever).
    request.on('upgrade', (_incoming, socket) => {
      socket.destroy();
      reject(new TypeError('the server switched protocols (HTTP 101) instead of answering'));
    });
    // Whatever else ends the request without an answer (settled already when there was one), and the deadline itself.
    request.on('close', () => reject(new TypeError('the connection closed before an answer')));
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    request.end();
  });
  const unlisten = () => signal.removeEventListener('abort', onAbort as () => void);
  settled.then(unlisten, unlisten);
  return settled;
}
