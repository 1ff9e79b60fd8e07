// hk5: the host stops reading a stdio MCP server's output while it owes the server more than 256 answers.
// On Bun, which hands a child's output on chunk after chunk without running the answers' promise callbacks
// in between, a ping flood piled up 740,000 pending handlers (3.4 GB, 18 s) before the 1 MiB-unread stop
// (red17) could even see an answer. Here the answers are held back by the test, as Bun held them: the old
// transport handed on all 5,000 requests; now it hands on 256, then the rest as answers go out, none lost.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { groupStdioTransport } from '../../host/mcp/stdio.js';

const PINGS = 5_000;
// Writes PINGS pings at once, then stays (reading its stdin, so our answers drain).
const server = `
const lines = Array.from({ length: ${PINGS} }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: 'p' + i, method: 'ping' }) + '\\n').join('');
process.stdout.write(lines);
process.stdin.resume();
`;

const until = async (what: () => boolean, ms = 10_000): Promise<void> => {
  for (const end = performance.now() + ms; !what() && performance.now() < end; ) await new Promise((r) => setTimeout(r, 10));
};

describe('a stdio MCP server the host owes many answers', () => {
  it('is not read past 256 unanswered requests, and every request arrives once answers go out', async () => {
    const transport = await groupStdioTransport({ command: process.execPath, args: ['-e', server], maxBufferSize: 64 << 20, onStderr: () => undefined });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    try {
      // The server's 256 first requests arrive (however long a loaded machine takes to start it), then no more:
      // nothing answered yet, the host holds at most 256 of the server's requests.
      await until(() => received.length >= 256);
      await until(() => received.length > 256, 1_000);
      expect(received.length).toBe(256);
      let answered = 0;
      await until(() => {
        // Answer what arrived, as the SDK would once its handlers run.
        for (; answered < received.length; answered++) {
          const ping = received[answered] as { id: string };
          void transport.send({ jsonrpc: '2.0', id: ping.id, result: {} });
        }
        return received.length === PINGS;
      });
      expect(received.length).toBe(PINGS);
      expect(new Set(received.map((m) => (m as { id: string }).id)).size).toBe(PINGS);
    } finally {
      await transport.close();
    }
  }, 30_000);
});
