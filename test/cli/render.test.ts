import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EmittedEvent, HostEvent } from '../../host/events/types.js';
import { useColor, type OutStream } from '../../host/cli/io.js';
import { EventRenderer } from '../../host/cli/render.js';

function sink(isTTY: boolean): OutStream & { text: string } {
  return {
    text: '',
    isTTY,
    write(s: string) {
      this.text += s;
    },
  };
}

let seq = 0;
const ev = (e: EmittedEvent): HostEvent => ({ ...e, seq: ++seq, sessionId: 's', time: 0 }) as HostEvent;

const usage = { inputTokens: 1200, outputTokens: 45 };
const run: EmittedEvent[] = [
  { type: 'agent.start', prompt: 'p', model: 'scripted', turn: 1 },
  { type: 'message.start', model: 'scripted' },
  { type: 'text.delta', text: 'Checking ' },
  { type: 'text.delta', text: 'files.' },
  { type: 'tool.call', toolUseId: 't1', name: 'Bash', input: { command: 'ls' } },
  { type: 'tool.call', toolUseId: 't2', name: 'Write', input: { file_path: '/a', content: 'x' } },
  { type: 'message.end', content: [], text: '', stopReason: 'tool_use', usage },
  { type: 'hook.end', hookId: 'g#0', hookName: 'guard', kind: 'wasm', event: 'PreToolUse', toolUseId: 't1', decision: 'allow', durationMs: 0.25, fuelUsed: 1500 },
  { type: 'tool.output', toolUseId: 't1', name: 'Bash', content: 'a.txt\nb.txt', isError: false, durationMs: 12 },
  { type: 'hook.end', hookId: 'g#0', hookName: 'guard', kind: 'wasm', event: 'PreToolUse', toolUseId: 't2', decision: 'deny', durationMs: 101, failure: { code: 'TIMEOUT', message: 'deadline' }, failurePolicy: 'fail-closed' },
  { type: 'tool.denied', toolUseId: 't2', name: 'Write', reason: 'guard timed out', source: 'hook', hookName: 'guard' },
  { type: 'hook.end', hookId: 'o#0', hookName: 'observer', kind: 'js', event: 'PostToolBatch', decision: 'continue', durationMs: 0.1 },
  { type: 'hook.end', hookId: 's#0', hookName: 'budget', kind: 'shell', event: 'Stop', decision: 'block', reason: 'run the tests', durationMs: 4 },
  {
    type: 'agent.end',
    result: { subtype: 'success', text: 'x', turns: 2, usage, durationMs: 1500 },
  },
];

describe('EventRenderer', () => {
  it('renders text, a line per tool call with its hook decisions, notable hooks and a summary', () => {
    const out = sink(false);
    const r = new EventRenderer({ out, color: false, spinner: false });
    for (const e of run) r.render(ev(e));
    expect(out.text.split('\n')).toEqual([
      'Checking files.',
      '✓ Bash(ls) 12ms → a.txt b.txt · guard allow (0.25ms, 1.5k fuel)',
      '⊘ Write({"file_path":"/a","content":"x"}) denied by guard (hook): guard timed out · guard deny TIMEOUT→fail-closed (101ms)',
      '  ↳ Stop budget block (4.0ms): run the tests',
      '── success · 2 model calls · 2 tool calls (1 denied) · 4 hook calls (105ms, 1.5k fuel) · 1.2k in / 45 out tokens · 1.5s',
      '',
    ]);
  });

  it('shows hooks\' system messages under their call, and once says why nobody was asked', () => {
    const out = sink(false);
    const r = new EventRenderer({ out, color: false, spinner: false });
    const events: EmittedEvent[] = [
      { type: 'tool.call', toolUseId: 'a', name: 'Bash', input: { command: 'ls' } },
      { type: 'hook.end', hookId: 'g#0', hookName: 'guard', kind: 'wasm', event: 'PreToolUse', toolUseId: 'a', decision: 'continue', durationMs: 1, systemMessage: 'checked ls' },
      { type: 'tool.denied', toolUseId: 'a', name: 'Bash', reason: 'Bash needs permission and no canUseTool callback is set', source: 'no-callback' },
      { type: 'tool.call', toolUseId: 'b', name: 'Bash', input: { command: 'pwd' } },
      { type: 'tool.denied', toolUseId: 'b', name: 'Bash', reason: 'Bash needs permission and no canUseTool callback is set', source: 'no-callback' },
    ];
    for (const e of events) r.render(ev(e));
    const lines = out.text.trim().split('\n');
    expect(lines[0]).toMatch(/^⊘ Bash\(ls\) denied by no-callback: /);
    expect(lines[1]).toBe('  guard: checked ls');
    expect(lines[2]).toMatch(/nobody to ask here/);
    expect(lines[3]).toMatch(/^⊘ Bash\(pwd\) denied by no-callback/);
    expect(lines).toHaveLength(4);
  });

  it('colours only when asked', () => {
    const out = sink(false);
    const r = new EventRenderer({ out, color: true, spinner: false });
    for (const e of run) r.render(ev(e));
    expect(out.text).toMatch(/\x1b\[32m✓\x1b\[39m/);
  });

  describe('spinner', () => {
    beforeEach(() => vi.useFakeTimers());
    afterEach(() => vi.useRealTimers());

    it('spins on a TTY while the model or a tool works, and clears its line before any output', () => {
      const out = sink(true);
      const r = new EventRenderer({ out, color: false, spinner: true });
      r.render(ev(run[1]!)); // message.start
      vi.advanceTimersByTime(200);
      expect(out.text).toMatch(/\r\x1b\[2K⠙ thinking…/);
      r.render(ev(run[2]!)); // text.delta clears the spinner first
      expect(out.text.endsWith('\r\x1b[2KChecking ')).toBe(true);
      r.render(ev(run[4]!)); // tool.call: newline, then spin on the tool
      expect(out.text).toMatch(/Checking \n\r\x1b\[2K\S Bash\(ls\)…$/);
      r.render(ev(run[8]!)); // tool.output
      expect(out.text).toMatch(/\r\x1b\[2K✓ Bash\(ls\) 12ms/);
      r.close();
    });

    it('never spins off a TTY', () => {
      const out = sink(false);
      const r = new EventRenderer({ out, color: false, spinner: false });
      r.render(ev(run[1]!));
      vi.advanceTimersByTime(500);
      expect(out.text).toBe('');
    });
  });
});

describe('useColor', () => {
  const tty = sink(true);
  it('honours NO_COLOR and FORCE_COLOR, else colours a TTY only', () => {
    expect(useColor(tty, {})).toBe(true);
    expect(useColor(tty, { NO_COLOR: '1' })).toBe(false);
    expect(useColor(sink(false), {})).toBe(false);
    expect(useColor(sink(false), { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor(tty, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(useColor(tty, { TERM: 'dumb' })).toBe(false);
  });
});

describe('EventRenderer with sub-agents', () => {
  it('indents a sub-agent’s lines under its agent call, between ▸ and ◂ lines', async () => {
    const { createHost } = await import('../../host/host.js');
    const { scriptedModel } = await import('../../host/models/scripted.js');
    const { tool } = await import('../../host/tools/define.js');
    const { z } = await import('zod');
    const host = createHost({
      permissionMode: 'bypassPermissions',
      tools: [tool('Read', 'Read a file', z.object({ file_path: z.string() }), ({ file_path }) => `contents of ${file_path}`)],
      agents: { researcher: { description: 'Reads files', systemPrompt: 'You research.', tools: ['Read'] } },
      model: scriptedModel([
        { text: 'Asking the researcher.', toolCalls: [{ name: 'agent', input: { subagent_type: 'researcher', prompt: 'read a' } }] },
        { text: 'Reading a.\nThen reporting.', toolCalls: [{ name: 'Read', input: { file_path: '/a' } }] },
        { text: 'a says hi' },
        { text: 'Done.' },
      ]),
    });
    const out = sink(false);
    const r = new EventRenderer({ out, color: false, spinner: false });
    for await (const e of host.session().stream('go')) r.render(e);
    const lines = out.text.split('\n');
    const start = lines.findIndex((l) => l.startsWith('▸ agent researcher: read a'));
    const end = lines.findIndex((l) => l.startsWith('◂ agent researcher success · 2 model call(s)'));
    expect(start, out.text).toBeGreaterThan(0);
    expect(end, out.text).toBeGreaterThan(start);
    const inside = lines.slice(start + 1, end);
    expect(inside.length, out.text).toBeGreaterThan(2);
    for (const l of inside) expect(l, out.text).toMatch(/^ {2}│ /);
    expect(inside.join('\n')).toMatch(/│ Reading a\.\n {2}│ Then reporting\./);
    expect(inside.join('\n')).toMatch(/│ ✓ Read\(\/a\)/);
    expect(lines.slice(end + 1).join('\n')).toMatch(/^(✓ agent.*\n)?Done\./m);
  });
});

// Red review (red4): deny reasons, log lines, progress, tool output and model text went to the terminal as
// written, escape sequences included (erase the line a deny was on, OSC 52 clipboard, OSC 8 links).
describe('EventRenderer and terminal control characters', () => {
  it('shows control characters from plugins, MCP servers and models as escapes; keeps newlines and tabs', () => {
    const out = sink(false);
    const r = new EventRenderer({ out, color: false, spinner: false, verbose: true });
    const esc = '\u001b';
    const events: EmittedEvent[] = [
      { type: 'text.delta', text: `hi${esc}[2J\tthere\r\n` },
      { type: 'tool.call', toolUseId: 'a', name: 'Bash', input: { command: `ls${esc}]52;c;cm0gLXJmIC8=\u0007` } },
      { type: 'hook.end', hookId: 'g#0', hookName: 'guard', kind: 'wasm', event: 'PreToolUse', toolUseId: 'a', decision: 'deny', durationMs: 1, failure: { code: 'TRAP', message: `x${esc}[1A` } },
      { type: 'tool.denied', toolUseId: 'a', name: 'Bash', reason: `no\r${esc}[2K✓ allowed`, source: 'hook', hookName: 'guard' },
      { type: 'plugin.log', plugin: `p${esc}]8;;http://evil${esc}\\`, level: 'warn', message: `careful\u202eevil` },
      { type: 'tool.progress', toolUseId: 'b', name: 'calc', progress: `50%${esc}[0m` },
    ];
    for (const e of events) r.render(ev(e));
    expect(out.text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(out.text).toContain('\\u001b[2J\tthere\n');
    expect(out.text).toContain('\\u001b]52;c;cm0gLXJmIC8=\\u0007');
    expect(out.text).toContain('no\\u000d\\u001b[2K✓ allowed');
    expect(out.text).toContain('careful\\u202eevil');
  });
});
