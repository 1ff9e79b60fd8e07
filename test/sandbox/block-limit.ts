// Session 40's block-limit scenarios (test/fixtures/hostile/alloc-blocks.wat), shared by the vitest file
// (test/sandbox/red40.block-limit.test.ts, on the host's source) and test/xrt/red40-decode.xrt.ts (on dist/
// under Node, Deno and Bun; on Node under vitest the xrt run leaves them to the vitest twin). Each call past
// the limit takes seconds: Extism's alloc sums every block of the call, n²/2 visits for n blocks.
import assert from 'node:assert/strict';
import { z } from 'zod';

/** The refusal, as the host words it. */
const TOO_MANY_BLOCKS = /^the plugin allocated too many memory blocks in one call: Extism's runtime holds at most 32768 per call/;
/** Past the default fuel (which stops an alloc loop near 5,600 blocks: red4.alloc-count.test.ts), as an embedder may raise it. */
const LIMITS = { timeoutMs: 120_000, fuel: 1e13 };

type Outcome = { ok: true; output: Uint8Array } | { ok: false; failure: { code: string; message: string } };
interface Sandbox {
  call(fn: string, input: Uint8Array): Promise<Outcome>;
  close(): Promise<void>;
}
interface HostEventLike {
  type: string;
  decision?: string;
  failure?: { code: string; message: string };
}
/** What the scenarios use of the host's API (its source or dist/). */
export interface BlockApi {
  createSandbox(bytes: Uint8Array, options: object): Promise<Sandbox>;
  loadPlugin(source: { bytes: Uint8Array }, options: object): Promise<{ close(): Promise<void> }>;
  createHost(options: object): { session(): { stream(prompt: string): AsyncIterable<HostEventLike> } };
  scriptedModel(script: object): unknown;
  tool(name: string, description: string, schema: z.ZodObject, run: (input: { command: string }) => string): unknown;
}

const u64 = (n: number): Uint8Array => {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(n), true);
  return bytes;
};

/**
 * `run` of 40,000 blocks: a TRAP that says so (old code: a TRAP for output_set's "address Extism refuses");
 * then `run` of 10 answers "A".
 */
export async function blocksPastLimit(api: BlockApi, isolation: 'in-thread' | 'worker', wasm: Uint8Array): Promise<void> {
  const sandbox = await api.createSandbox(wasm, { isolation, limits: LIMITS });
  try {
    const over = await sandbox.call('run', u64(40_000));
    assert.ok(!over.ok && over.failure.code === 'TRAP' && TOO_MANY_BLOCKS.test(over.failure.message), `${isolation}: ${JSON.stringify(over).slice(0, 300)}`);
    const next = await sandbox.call('run', u64(10));
    assert.equal(next.ok && new TextDecoder().decode(next.output), 'A', isolation);
  } finally {
    await sandbox.close();
  }
}

/**
 * alloc-blocks.wat's `guard` as a PreToolUse guard's hook (`guardWasm`: through guard.ts's asGuard): the first
 * Bash call (a long command) floods, a TRAP, and is denied; the second (short) runs, the instance rebuilt.
 */
export async function guardPastLimit(api: BlockApi, guardWasm: Uint8Array, isolation: 'in-thread' | 'worker'): Promise<void> {
  const guard = await api.loadPlugin({ bytes: guardWasm }, { isolation, limits: LIMITS });
  try {
    const ran: string[] = [];
    const bash = api.tool('Bash', 'Run a command', z.object({ command: z.string() }), ({ command }) => (ran.push(command), 'ok'));
    const long = `echo ${'x'.repeat(300)}`;
    const host = api.createHost({
      plugins: [guard],
      tools: [bash],
      permissionMode: 'bypassPermissions',
      model: api.scriptedModel({ turns: [{ toolCalls: [{ name: 'Bash', input: { command: long } }] }, { toolCalls: [{ name: 'Bash', input: { command: 'ls' } }] }, { text: 'Done.' }] }),
    });
    const events: HostEventLike[] = [];
    for await (const e of host.session().stream('go')) events.push(e);
    assert.deepEqual(ran, ['ls'], 'the flooding call was denied (fail closed), the next one ran');
    assert.equal(events.filter((e) => e.type === 'tool.denied').length, 1);
    const ends = events.filter((e) => e.type === 'hook.end');
    assert.ok(ends[0]?.decision === 'deny' && ends[0].failure?.code === 'TRAP' && TOO_MANY_BLOCKS.test(ends[0].failure.message), JSON.stringify(ends[0]).slice(0, 300));
    assert.ok(ends[1] !== undefined && ends[1].failure === undefined, JSON.stringify(ends[1]).slice(0, 300));
  } finally {
    await guard.close();
  }
}
