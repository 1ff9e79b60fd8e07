/**
 * What a hostile MCP server may cost the host: pages and tools per listing,
 * how often a listing is refreshed, and progress text per call (client.ts).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRunContext } from '../tools/types.js';
import { cappedBody } from '../capped-body.js';

/**
 * Progress text passed on per call, as a WASM tool's `maxProgressBytes`
 * default. A server may send notifications as fast as it likes for the whole
 * call: each one became a `tool.progress` event (kept in the replay log, sent
 * to every watcher), 20 MB of them for one call in the test.
 */
const MAX_MCP_PROGRESS_CHARS = 1 << 20;
/** …and at most this many messages (each an event), as a WASM tool's MAX_PROGRESS_MESSAGES_PER_CALL. */
const MAX_MCP_PROGRESS_MESSAGES = 10_000;

/** `onprogress` for one call: passed on up to MAX_MCP_PROGRESS_CHARS, then one note, then nothing. */
export function progressSink(ctx: ToolRunContext): (p: { progress: number; total?: number | undefined; message?: string | undefined }) => void {
  let chars = 0;
  let count = 0;
  return (p) => {
    if (chars > MAX_MCP_PROGRESS_CHARS || count > MAX_MCP_PROGRESS_MESSAGES) return;
    const text = p.message ?? (p.total ? `${p.progress}/${p.total}` : String(p.progress));
    chars += text.length;
    count++;
    const over = chars > MAX_MCP_PROGRESS_CHARS || count > MAX_MCP_PROGRESS_MESSAGES;
    ctx.onProgress(over ? `[more progress dropped: over ${MAX_MCP_PROGRESS_CHARS} characters or ${MAX_MCP_PROGRESS_MESSAGES} messages in one call]` : text);
  };
}

/** The least time between two `tools/list_changed` refreshes of one server. */
export const MIN_REFRESH_MS = 2_000;
/** …and at least this many times what the last refresh took (the SDK parses a page of any size): ≤ 1/20 of the host's time. */
export const REFRESH_DUTY = 20;
/** Pages of `tools/list` read at start; a server still paging after this many is refused. */
const MAX_TOOL_PAGES = 100;
/**
 * Tools registered per server, from the listing at start and from each
 * `tools/list_changed` refresh. Each one costs the host a schema compile
 * (about 0.1 ms): one page of 50,000 held the event loop for 5 s, and a
 * server may ask for a refresh every few hundred ms.
 */
export const MAX_TOOLS = 1_000;
/**
 * Input-schema text registered per server (JSON characters, all its tools together). Each schema
 * is compiled for checking inputs at about 30 µs a node: 1,000 tools of 5 KB schemas held the event
 * loop for seconds at every (re)listing. Tools past it are skipped, with an event.
 */
export const MAX_SCHEMA_CHARS = 1 << 20;

/**
 * Every page of `tools/list`, within the start's one deadline (`startTimeoutMs` covers the whole
 * start, not each page) and `MAX_TOOL_PAGES`: a server that answers every page at once with an empty
 * list and a next cursor held the first prompt forever.
 */
export async function listAllTools(client: Client, deadline: number, timeout: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let pages = 0; ; pages++) {
    const left = Math.ceil(deadline - performance.now());
    if (left <= 0) throw new Error(`tools/list did not finish within startTimeoutMs (${timeout} ms; ${pages} pages read)`);
    if (pages === MAX_TOOL_PAGES) throw new Error(`tools/list still had a next page after ${MAX_TOOL_PAGES} pages (${tools.length} tools)`);
    const page = await client.listTools(cursor ? { cursor } : undefined, { timeout: left });
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (!cursor || tools.length > MAX_TOOLS) return tools;
  }
}

/**
 * Bytes of one message from an MCP server, on either transport: the SDK's own stdio read buffer
 * default (its `ReadBuffer`), applied to HTTP too, where the SDK had none. Over Streamable HTTP the SDK
 * reads a JSON answer with `response.json()`, an error answer with `response.text()` and an SSE event
 * until its blank line, whatever their size: a server that sent an endless body held the request until
 * its timeout while the host buffered every byte (memory, then a parse of all of it).
 */
export const MAX_MCP_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * How the cut body's error starts. Over SSE the SDK only reports a broken stream (`onerror`, its text
 * wrapped) and leaves the request waiting for its timeout: the client closes the connection on it.
 */
export const TOO_LARGE = 'the MCP server sent a message';

/** How the stdio transport's error starts when it stops a server that does not read its stdin (stdio.ts). */
export const NOT_READING = 'the MCP server is not reading what the host sends';

/** Statuses whose Response may not have a body (the constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` for the SDK's Streamable HTTP transport, answering with bodies cut at `max` bytes: a JSON or
 * text body in all, an event stream per event. Past it the body errors (the SDK's read rejects, the
 * request fails at once) and the rest is not read: the connection is cancelled.
 */
export function boundedFetch(max = MAX_MCP_MESSAGE_BYTES, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body || NULL_BODY.has(response.status)) return response;
    const events = (response.headers.get('content-type') ?? '').toLowerCase().includes('text/event-stream');
    const bounded = new Response(response.body.pipeThrough(cappedBody(max, events, () => new Error(`${TOO_LARGE} over ${max} bytes (MAX_MCP_MESSAGE_BYTES); the rest of its answer was not read`))), { status: response.status, statusText: response.statusText, headers: response.headers });
    // What the SDK reads of the original besides its body (redirect handling): the same answers.
    for (const key of ['url', 'type', 'redirected'] as const) Object.defineProperty(bounded, key, { value: response[key] });
    return bounded;
  };
}
