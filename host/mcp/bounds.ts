/**
 * What a hostile MCP server may cost the host: pages and tools per listing,
 * how often a listing is refreshed, and progress text per call (client.ts).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRunContext } from '../tools/types.js';

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
