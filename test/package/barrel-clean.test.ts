// `import 'wasmhooks'` stays web-standard (hono's rule, the MCP SDK's
// barrelClean test): the main entry's static module graph reaches no Node
// builtin. Node-only pieces (files, processes, workers, serving) are loaded
// with `import()` where they are used, or live behind the CLI.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const host = fileURLToPath(new URL('../../host/', import.meta.url));
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
// Static value imports and re-exports (not `import type`, not `import()`).
const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"`;]*?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** A relative import's file: `x.js` is written for `x.ts` (or is a generated `.js`). */
function localFile(path: string): string {
  const ts = path.replace(/\.js$/, '.ts');
  try {
    readFileSync(ts);
    return ts;
  } catch {
    return path;
  }
}

/** Every module reachable from `entry` by static value imports, with the chain that reached it. */
function staticGraph(entry: string): Map<string, string[]> {
  const seen = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift() as string;
    if (!file.endsWith('.ts') && !file.endsWith('.js')) continue;
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(STATIC)) {
      const spec = m[1] as string;
      const target = spec.startsWith('.') ? localFile(resolve(dirname(file), spec)) : spec;
      if (seen.has(target)) continue;
      seen.set(target, [...(seen.get(file) as string[]), target]);
      if (spec.startsWith('.')) queue.push(target);
    }
  }
  return seen;
}

/** The chains by which `entry` reaches a module that `bad` picks. */
function reached(entry: string, bad: (module: string) => boolean): string[] {
  return [...staticGraph(join(host, entry)).entries()].filter(([m]) => bad(m)).map(([, chain]) => chain.map((f) => f.replace(host, 'host/')).join(' → '));
}

// What the subpath entries (host/entries/) hold, so that `import 'wasmhooks'` does not pay for it.
const SERVER_PACKAGES = /^(hono|@hono\/|@modelcontextprotocol\/sdk\/server|commander$)/;
const SUBPATH_SOURCES = /\/host\/(server\/|cli\/|runtime\/serve|mcp\/(server|http)\.ts$)/;

describe('the main entry', () => {
  it('reaches no Node builtin through static imports', () => {
    const offenders = reached('index.ts', (m) => builtins.has(m));
    expect(offenders, `Node builtins reached from host/index.ts:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('reaches neither the HTTP server, the MCP server nor the CLI (wasmhooks/server, /mcp, /cli)', () => {
    const offenders = reached('index.ts', (m) => SERVER_PACKAGES.test(m) || SUBPATH_SOURCES.test(m));
    expect(offenders, `server, MCP server or CLI code reached from host/index.ts:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('reaches neither protobufjs nor its generated code (describe and hook answers are read by hand; tool calls load them)', () => {
    const offenders = reached('index.ts', (m) => m.startsWith('protobufjs') || m.endsWith('/protocol/gen/hooks.js') || m.endsWith('/protocol/pb-codec.ts'));
    expect(offenders, `protobufjs reached from host/index.ts:\n${offenders.join('\n')}`).toEqual([]);
  });

  // What the common path (import, load a guard, decide) never runs stays out of the main entry's
  // static graph, so that \`import 'wasmhooks'\` does not parse it (the cold start, bench/rows/cold.ts):
  // it is loaded with \`import()\` where an async step needs it.
  it('reaches no code that only a worker-isolated or WASI plugin, a stored session, an MCP server or a model provider\'s stream needs', () => {
    const LAZY =
      /^(ioredis|@modelcontextprotocol\/sdk|eventsource-parser$)|\/host\/(sandbox\/worker\/(host|channel|node-thread|web-worker|sandbox-worker)|store\/(file|memory|redis[a-z-]*|jsonl|dir-lock|fifo)|models\/(http|sse|provider-stream|openai-decoder|anthropic-decoder|ai-sdk-stream)|mcp\/(client|bounds|result)|sandbox\/wasi\/(preview1|files|poll|guest|stdio))\.ts$/;
    const offenders = reached('index.ts', (m) => LAZY.test(m));
    expect(offenders, `lazily loaded modules reached statically from host/index.ts:\n${offenders.join('\n')}`).toEqual([]);
    // The pattern matches what it names: the worker side's host reaches its channel.
    expect(reached('sandbox/worker/host.ts', (m) => LAZY.test(m) && m.endsWith('/channel.ts'))).not.toEqual([]);
  });

  it('the test would see them: the server and MCP entries do reach hono and the MCP server SDK', () => {
    expect(reached('entries/server.ts', (m) => m === 'hono')).not.toEqual([]);
    expect(reached('entries/mcp.ts', (m) => m.startsWith('@modelcontextprotocol/sdk/server'))).not.toEqual([]);
    expect(reached('entries/cli.ts', (m) => m === 'commander')).not.toEqual([]);
  });

  it('the server and MCP entries are web-standard too (serving adapters load by runtime)', () => {
    for (const entry of ['entries/server.ts', 'entries/mcp.ts']) {
      const offenders = reached(entry, (m) => builtins.has(m));
      expect(offenders, `Node builtins reached from host/${entry}:\n${offenders.join('\n')}`).toEqual([]);
    }
  });

  it('prints nothing when imported (Extism, whose Node build loads node:wasi, waits for the first plugin)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "await import('./host/index.ts')"], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/ExperimentalWarning/);
  }, 90_000);
});
