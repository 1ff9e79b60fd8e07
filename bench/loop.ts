// Agent-loop overhead and event-bus publish cost.
// 1. Loop overhead per iteration: one model call + one tool call through the
//    whole loop (events, hook points with no hooks, permission, validation),
//    against the anchor: the same scripted turn streamed and the same tool run
//    by hand. The difference is what the loop adds.
// 2. Publish cost per event with 0, 1 and 4 subscribers (publish + delivery),
//    against the anchor: calling the same subscribers directly.
// Times are CPU time (process.cpuUsage, user+system) so that a busy shared
// machine does not inflate them; wall-clock medians are printed alongside.
// Run: npx tsx bench/loop.ts [iterations=2000]
import { z } from 'zod';
import { EventBus } from '../host/events/bus.js';
import type { HostEvent } from '../host/events/types.js';
import { createHost } from '../host/host.js';
import { scriptedModel, type ScriptedTurn } from '../host/models/scripted.js';
import { tool } from '../host/tools/define.js';

const ITER = Number(process.argv[2] ?? 2000);
const PER_PROMPT = 20; // iterations per prompt (keeps the history short)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** CPU and wall time of one run, in µs. */
interface Sample {
  cpu: number;
  wall: number;
}
async function timed(fn: () => Promise<void>): Promise<Sample> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const c = process.cpuUsage(c0);
  return { cpu: c.user + c.system, wall: (performance.now() - t0) * 1000 };
}
const medianOf = (xs: Sample[]): Sample => ({ cpu: median(xs.map((x) => x.cpu)), wall: median(xs.map((x) => x.wall)) });
const per = (s: Sample, n: number): Sample => ({ cpu: s.cpu / n, wall: s.wall / n });

const toolTurn: ScriptedTurn = { text: 'Reading the file now.', toolCalls: [{ name: 'Echo', input: { text: 'hello world' } }] };
const echo = tool('Echo', 'Echo text', z.object({ text: z.string() }), ({ text }) => text);
const ROUNDS = Math.max(3, Math.round(ITER / PER_PROMPT));
const WARMUP = 5;

/** Per iteration: prompts of PER_PROMPT tool turns, each prompt in a fresh session. */
async function loopPerIteration(hooks: boolean): Promise<Sample> {
  const model = scriptedModel({ rules: [{ when: () => true, reply: toolTurn }] });
  const noop = async () => ({});
  const host = createHost({
    model,
    tools: [echo],
    permissionMode: 'bypassPermissions',
    maxTurns: PER_PROMPT,
    ...(hooks ? { hooks: { PreToolUse: [{ hooks: [noop] }], PostToolUse: [{ hooks: [noop] }] } } : {}),
  });
  const samples: Sample[] = [];
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    model.requests.length = 0;
    let turns = 0;
    const s = await timed(async () => {
      const result = await host.session().prompt('go');
      if (result.subtype !== 'error_max_turns') throw new Error(`unexpected result ${JSON.stringify(result)}`);
      turns = result.turns;
    });
    if (r >= WARMUP) samples.push(per(s, turns));
  }
  return medianOf(samples);
}

/** The anchor: the same turn streamed from the same model, the tool validated and run by hand. */
async function anchorPerIteration(): Promise<Sample> {
  const model = scriptedModel({ rules: [{ when: () => true, reply: toolTurn }] });
  const signal = new AbortController().signal;
  const context = { session_id: 's', cwd: '/', turn: 1, iteration: 1, permission_mode: 'default' as const };
  const samples: Sample[] = [];
  for (let r = 0; r < ROUNDS + WARMUP; r++) {
    model.requests.length = 0;
    const s = await timed(async () => {
      for (let i = 0; i < PER_PROMPT; i++) {
        for await (const ev of model.stream({ messages: [{ role: 'user', content: 'go' }], tools: [], signal })) {
          if (ev.type !== 'tool.call') continue;
          const checked = echo.validate?.(ev.input);
          if (checked?.ok) await echo.run(checked.value, { signal, toolUseId: ev.id, onProgress: () => {}, context });
        }
      }
    });
    if (r >= WARMUP) samples.push(per(s, PER_PROMPT));
  }
  return medianOf(samples);
}

const ev = (seq: number): HostEvent => ({ type: 'text.delta', text: 'x', seq, sessionId: 's', time: 0 });
const N = 200_000;
const BATCH = 1000; // below the default queue size, so nothing is dropped

/** Per event: publish in batches, letting the subscribers drain between batches. */
async function publishPerEvent(subs: number, direct: boolean): Promise<Sample> {
  const bus = new EventBus();
  let sink = 0;
  const fns = Array.from({ length: subs }, () => (e: HostEvent) => void (sink += e.seq));
  for (const f of fns) bus.subscribe(f);
  const samples: Sample[] = [];
  for (let round = 0; round < 7; round++) {
    const s = await timed(async () => {
      for (let b = 0; b < N; b += BATCH) {
        for (let i = 0; i < BATCH; i++) {
          const e = ev(i);
          if (direct) for (const f of fns) f(e);
          else bus.publish(e);
        }
        await new Promise<void>((r) => setImmediate(r));
      }
    });
    if (round >= 2) samples.push(per(s, N / 1000)); // ns per event
  }
  if (sink < 0) console.log(sink);
  return medianOf(samples);
}

const rows: string[][] = [];
const num = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const row = (what: string, ours: Sample, anchor: Sample | undefined, unit: string) =>
  rows.push([
    what,
    `${num(ours.cpu)} ${unit}`,
    anchor ? `${num(anchor.cpu)} ${unit}` : '—',
    anchor ? `${(ours.cpu / anchor.cpu).toFixed(2)}x` : '—',
    `${num(ours.wall)}${anchor ? ` / ${num(anchor.wall)}` : ''} ${unit}`,
  ]);

const anchor = await anchorPerIteration();
const loop = await loopPerIteration(false);
const loopHooks = await loopPerIteration(true);
row('loop iteration (model turn + 1 tool), no hooks', loop, anchor, 'µs');
row('loop iteration, 1 JS hook on Pre+PostToolUse', loopHooks, anchor, 'µs');
row('loop overhead per iteration (loop − anchor)', { cpu: loop.cpu - anchor.cpu, wall: loop.wall - anchor.wall }, undefined, 'µs');
for (const subs of [0, 1, 4]) {
  row(`publish + delivery per event, ${subs} subscriber${subs === 1 ? '' : 's'}`, await publishPerEvent(subs, false), await publishPerEvent(subs, true), 'ns');
}

const head = ['what', 'ours (cpu)', 'anchor (cpu)', 'ratio', 'wall ours / anchor'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(`Node ${process.version}, ${ROUNDS} prompts × ${PER_PROMPT} iterations per row, ${N} events per publish round, medians`);
console.log('anchors: loop = the same scripted turn streamed + the tool validated and run by hand; publish = calling the subscribers directly');
console.log(line(head));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
