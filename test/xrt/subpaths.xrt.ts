// The package's entries on every runtime, through the built ESM: `wasmhooks`
// (no HTTP framework, no MCP server, no CLI in its static graph; the cold path
// import → guard-shell by name → a decision), `wasmhooks/server` (serve on this
// runtime's adapter), `wasmhooks/mcp` (our tools to an MCP client) and
// `wasmhooks/cli` (the command in-process).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

const dist = new URL('../../dist/', import.meta.url);
const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';

/** Bare specifiers reached from a built entry through static imports (chunks followed). */
function builtImports(entry: string): Set<string> {
  const bare = new Set<string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(new URL(file, dist), 'utf8');
    for (const m of code.matchAll(/^\s*(?:import|export)\s*(?:[^'"`;]*?\s*from\s*)?["']([^"']+)["']/gm)) {
      const spec = m[1] as string;
      if (spec.startsWith('./')) queue.push(spec.slice(2));
      else bare.add(spec);
    }
  }
  return bare;
}

export const scenarios: Record<string, () => Promise<void>> = {
  'wasmhooks: the built main entry reaches no hono, MCP server SDK or commander; guard-shell by name decides': async () => {
    const bare = [...builtImports('index.js')];
    assert.deepEqual(bare.filter((s) => /^(hono|@hono\/|@modelcontextprotocol\/sdk\/server|commander)/.test(s)), [], bare.join(', '));
    assert.ok(builtImports('server.js').has('hono'), 'the walk sees hono from the server entry');
    const w = await import('../../dist/index.js');
    const names = Object.keys(w);
    assert.deepEqual(['createServer', 'serve', 'createMcpServer', 'mcpHttpApp', 'runCli'].filter((n) => names.includes(n)), []);
    // A generous deadline: on a loaded machine the first instance of a process can pass the default 100 ms (this shows the entry works, not the deadline).
    const guard = await w.loadPlugin({ name: 'guard-shell' }, { limits: { timeoutMs: 5_000 } });
    try {
      const base = { session_id: 's', cwd: '/tmp', turn: 1, iteration: 1, permission_mode: 'default', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_use_id: 't' } as const;
      const ok = await guard.callHook({ ...base, tool_input: { command: 'ls -la' } });
      assert.ok(ok.ok && ok.output.decision === 'allow', JSON.stringify(ok));
      const no = await guard.callHook({ ...base, tool_input: { command: 'rm -rf /' } });
      assert.ok(no.ok && no.output.decision === 'deny', JSON.stringify(no));
    } finally {
      await guard.close();
    }
  },
  'wasmhooks/server: serve() on this runtime and the control plane answers': async () => {
    const { createServer, serve, runtimeName } = await import('../../dist/server.js');
    const { createHost, scriptedModel } = await import('../../dist/index.js');
    assert.equal(runtimeName(), runtime);
    const served = await serve(() => new Response('pong'), { hostname: '127.0.0.1', port: 0 });
    try {
      assert.equal(await (await fetch(served.url)).text(), 'pong');
    } finally {
      await served.close();
    }
    const server = createServer(createHost({ model: scriptedModel() }), {});
    try {
      const res = await server.app.request('/plugins');
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { plugins: [] });
    } finally {
      await server.close();
    }
  },
  'wasmhooks/mcp: a JS tool served to the SDK client': async () => {
    const { createMcpServer, relayModel } = await import('../../dist/mcp.js');
    const { createHost, tool } = await import('../../dist/index.js');
    const { z } = await import('zod');
    const echo = tool('Echo', 'echoes', z.object({ text: z.string() }), ({ text }) => `echo: ${text}`);
    const host = createHost({ model: relayModel(), tools: [echo], permissionMode: 'bypassPermissions' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await createMcpServer(host).connect(a);
    const client = new Client({ name: 'xrt', version: '1' });
    await client.connect(b);
    try {
      const result = (await client.callTool({ name: 'Echo', arguments: { text: 'hi' } })) as { content: { text: string }[] };
      assert.equal(result.content[0]?.text, 'echo: hi');
    } finally {
      await client.close();
      await host.close();
    }
  },
  'wasmhooks/cli: runCli in-process (plugin inspect guard-shell), exit code 0': async () => {
    const { runCli, EXIT } = await import('../../dist/cli-api.js');
    let out = '';
    let err = '';
    const io = { stdout: { write: (t: string) => void (out += t), isTTY: false }, stderr: { write: (t: string) => void (err += t), isTTY: false }, env: { NO_COLOR: '1' }, cwd: process.cwd() };
    const code = await runCli(['plugin', 'inspect', 'guard-shell'], io);
    assert.equal(code, EXIT.OK, err);
    assert.match(out, /guard-shell/);
    assert.match(out, /PreToolUse/);
  },
};
