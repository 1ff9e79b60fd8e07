// Agent-loop overhead and event-bus publish cost.
// 1. Loop overhead per iteration: one model call + one tool call through the
//    whole loop (events, hook points with no hooks, permission, validation),
//    against the anchor: the same scripted turn streamed and the same tool run
//    by hand. The difference is what the loop adds.
// 2. Publish cost per event with 0, 1 and 4 subscribers (publish + delivery),
//    against the anchor: calling the same subscribers directly.
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

const toolTurn: ScriptedTurn = { text: 'Reading the file now.', toolCalls: [{ name: 'Echo', input: { text: 'hello world' } }] };
const echo = tool('Echo', 'Echo text', z.object({ text: z.string() }), ({ text }) => text);

async function loopPerIteration(hooks: boolean): Promise<number> {
  const model = scriptedModel({
    rules: [{ when: (r) => r.messages.filter((m) => m.role === 'tool').length < PER_PROMPT - 1, reply: toolTurn }],
    turns: [],
  });
  const noop = async () => ({});
  const host = createHost({
    model,
    tools: [echo],
    permissionMode: 'bypassPermissions',
    maxTurns: PER_PROMPT + 1,
    ...(hooks ? { hooks: { PreToolUse: [{ hooks: [noop] }], PostToolUse: [{ hooks: [noop] }] } } : {}),
  });
  // The last turn of each prompt is a plain text answer.
  const runs = Math.max(1, Math.round(ITER / PER_PROMPT));
  const samples: number[] = [];
  for (let r = 0; r < runs + 5; r++) {
    (model as { requests: unknown[] }).requests.length = 0;
    const session = host.session();
    const t0 = performance.now();
    const result = await session.prompt('go');
    const dt = performance.now() - t0;
    if (result.subtype === 'error_during_execution' && result.error?.code !== 'SCRIPT_EXHAUSTED') throw new Error(JSON.stringify(result));
    if (r >= 5) samples.push((dt / result.turns) * 1000);
  }
  return median(samples);
}

async function anchorPerIteration(): Promise<number> {
  const model = scriptedModel({ rules: [{ when: () => true, reply: toolTurn }] });
  const signal = new AbortController().signal;
  const samples: number[] = [];
  for (let r = 0; r < Math.max(1, Math.round(ITER / PER_PROMPT)) + 5; r++) {
    const t0 = performance.now();
    for (let i = 0; i < PER_PROMPT; i++) {
      for await (const ev of model.stream({ messages: [{ role: 'user', content: 'go' }], tools: [], signal })) {
        if (ev.type === 'tool.call') {
          const checked = echo.validate?.(ev.input);
          if (checked?.ok) await echo.run(checked.value, { signal, toolUseId: ev.id, onProgress: () => {}, context: { session_id: 's', cwd: '/', turn: 1, iteration: i, permission_mode: 'default' } });
        }
      }
    }
    if (r >= 5) samples.push(((performance.now() - t0) / PER_PROMPT) * 1000);
  }
  return median(samples);
}

const ev = (seq: number): HostEvent => ({ type: 'text.delta', text: 'x', seq, sessionId: 's', time: 0 });
const N = 200_000;
const BATCH = 1000;
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

async function publishPerEvent(subs: number): Promise<number> {
  const bus = new EventBus();
  let sink = 0;
  for (let i = 0; i < subs; i++) bus.subscribe((e) => void (sink += e.seq));
  const samples: number[] = [];
  for (let round = 0; round < 7; round++) {
    const t0 = performance.now();
    for (let b = 0; b < N; b += BATCH) {
      for (let i = 0; i < BATCH; i++) bus.publish(ev(i));
      await Promise.resolve(); // let the drains run
    }
    await tick();
    if (round >= 2) samples.push(((performance.now() - t0) / N) * 1e9 / 1e3);
  }
  if (sink < 0) console.log(sink);
  return median(samples);
}

async function directPerEvent(subs: number): Promise<number> {
  let sink = 0;
  const fns = Array.from({ length: subs }, () => (e: HostEvent) => void (sink += e.seq));
  const samples: number[] = [];
  for (let round = 0; round < 7; round++) {
    const t0 = performance.now();
    for (let b = 0; b < N; b += BATCH) {
      for (let i = 0; i < BATCH; i++) {
        const e = ev(i);
        for (const f of fns) f(e);
      }
      await Promise.resolve();
    }
    await tick();
    if (round >= 2) samples.push(((performance.now() - t0) / N) * 1e9 / 1e3);
  }
  if (sink < 0) console.log(sink);
  return median(samples);
}

const rows: Array<[string, string, string, string]> = [];
const fmt = (n: number, unit: string) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ${unit}`;

const anchor = await anchorPerIteration();
const loop = await loopPerIteration(false);
const loopHooks = await loopPerIteration(true);
rows.push(['loop iteration (model turn + 1 tool), no hooks', fmt(loop, 'µs'), fmt(anchor, 'µs'), `${(loop / anchor).toFixed(2)}x`]);
rows.push(['loop iteration, 1 JS hook on Pre+PostToolUse', fmt(loopHooks, 'µs'), fmt(anchor, 'µs'), `${(loopHooks / anchor).toFixed(2)}x`]);
rows.push(['loop overhead per iteration (loop − anchor)', fmt(loop - anchor, 'µs'), '—', '—']);
for (const subs of [0, 1, 4]) {
  const ours = await publishPerEvent(subs);
  const base = await directPerEvent(subs);
  rows.push([`publish per event, ${subs} subscriber${subs === 1 ? '' : 's'}`, fmt(ours, "ns"), fmt(base, "ns"), base > 0 ? `${(ours / base).toFixed(2)}x` : '—']);
}

const head: [string, string, string, string] = ['what', 'ours', 'anchor', 'ratio'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(`Node ${process.version}, ${ITER} iterations (${PER_PROMPT} per prompt), ${N} events per publish round`);
console.log('anchors: loop = scripted turn streamed + tool validated and run by hand; publish = calling the subscribers directly');
console.log(line(head));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) console.log(line(r));
