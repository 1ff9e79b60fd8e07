// openStore refuses a Redis older than 7, on Node, Deno and Bun against the build. Before 7 a stream's XINFO has no
// `max-deleted-entry-id`, and the event log (redis-log.ts `since`) read its absence as "nothing trimmed": a client
// resuming from an evicted event got `ok` with the trimmed events silently missing (review rreplica). No Redis 6
// runs here, so the server is a few lines of RESP that answer INFO as Redis 6.2 does (and +OK to anything else):
// the refusal happens at connect, before any store command. A real Redis 7 opens as before (its scenarios).
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { openStore } from '../../dist/index.js';

/** Answers each RESP command array: INFO with `info`, anything else +OK. */
function respServer(info: string): Promise<{ url: string; close: () => void }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      // Commands are arrays of bulk strings: *N\r\n then N × ($len\r\n<bytes>\r\n).
      for (;;) {
        const m = /^\*(\d+)\r\n/.exec(pending);
        if (!m) return;
        let at = m[0].length;
        const args: string[] = [];
        for (let i = 0; i < Number(m[1]); i++) {
          const len = /^\$(\d+)\r\n/.exec(pending.slice(at));
          if (!len || pending.length < at + len[0].length + Number(len[1]) + 2) return;
          at += len[0].length;
          args.push(pending.slice(at, at + Number(len[1])));
          at += Number(len[1]) + 2;
        }
        pending = pending.slice(at);
        socket.write(args[0]?.toUpperCase() === 'INFO' ? `$${Buffer.byteLength(info)}\r\n${info}\r\n` : '+OK\r\n');
      }
    });
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `redis://127.0.0.1:${port}`, close: () => (sockets.forEach((s) => s.destroy()), server.close()) });
    }),
  );
}

export const scenarios: Record<string, () => Promise<void>> = {
  'a Redis older than 7 is refused at openStore with STORE_UNAVAILABLE naming the version': async () => {
    const redis6 = await respServer('# Server\r\nredis_version:6.2.14\r\nredis_mode:standalone\r\nloading:0\r\n');
    try {
      let error: { code?: string; message?: string } | undefined;
      try {
        const opened = await openStore({ kind: 'redis', url: redis6.url });
        await opened.close();
      } catch (e) {
        error = e as { code?: string; message?: string };
      }
      assert.equal(error?.code, 'STORE_UNAVAILABLE', String(error?.message));
      assert.match(error?.message ?? '', /is Redis 6\.2\.14; wasmhooks needs Redis 7 or later/);
    } finally {
      redis6.close();
    }
  },
};
