/**
 * Renders the event stream for a person: streamed text as it arrives, one
 * line per tool call with its hook decisions, hook decisions that changed
 * something, a spinner while the model or a tool works (TTY only), and a
 * summary at the end.
 */
import type { AgentResult, HostEvent, HostEventOf } from '../events/types.js';
import { count, hookSummary, ms, toolLabel, truncate } from './format.js';
import type { OutStream, Palette } from './io.js';
import { palette } from './io.js';
import { printableDeep } from './printable.js';
import { Spinner } from './spinner.js';

export interface RenderOptions {
  out: OutStream;
  color: boolean;
  /** Show the spinner (only sensible on a TTY). */
  spinner: boolean;
  /** Also show thinking, every hook call and turn boundaries. */
  verbose?: boolean;
}

interface PendingCall {
  label: string;
  hooks: HostEventOf<'hook.end'>[];
  permission?: HostEventOf<'permission.resolved'>;
}

interface Totals {
  toolCalls: number;
  denied: number;
  failed: number;
  hookCalls: number;
  hookMs: number;
  fuel: number;
}

export class EventRenderer {
  private readonly p: Palette;
  private readonly spinner: Spinner;
  private readonly calls = new Map<string, PendingCall>();
  private atLineStart = true;
  private inThinking = false;
  private hintedNoCallback = false;
  /** Written at the start of each line: sub-agents' lines are indented under their agent call. */
  private prefix = '';
  private readonly totals: Totals = { toolCalls: 0, denied: 0, failed: 0, hookCalls: 0, hookMs: 0, fuel: 0 };

  constructor(private readonly options: RenderOptions) {
    this.p = palette(options.color);
    this.spinner = new Spinner(options.out, options.spinner, this.p.dim);
  }

  render(raw: HostEvent): void {
    // Plugins, MCP servers and models write these strings: no control character reaches the terminal.
    const event = printableDeep(raw);
    // A sub-agent's own lines are indented; its ▸/◂ bounds stand at the parent's level.
    const nested = event.agentId !== undefined && event.type !== 'subagent.start' && event.type !== 'subagent.end';
    const prefix = nested ? this.p.dim('  │ ') : '';
    if (prefix !== this.prefix) {
      if (!this.atLineStart) this.write('\n');
      this.prefix = prefix;
    }
    switch (event.type) {
      case 'text.delta':
        this.endThinking();
        this.write(event.text);
        return;
      case 'thinking.delta':
        if (!this.options.verbose) return;
        if (!this.inThinking) {
          this.line(this.p.dim('thinking: '), false);
          this.inThinking = true;
        }
        this.write(this.p.dim(event.text));
        return;
      case 'message.start':
        this.wait('thinking…');
        return;
      case 'message.end':
        this.endThinking();
        this.spinner.stop();
        return;
      case 'tool.call': {
        this.totals.toolCalls++;
        const label = toolLabel(event.name, event.input);
        this.calls.set(event.toolUseId, { label, hooks: [] });
        this.wait(`${label}…`);
        return;
      }
      case 'hook.end':
        return this.hookEnd(event);
      case 'permission.resolved': {
        const call = this.calls.get(event.toolUseId);
        if (call) {
          call.permission = event;
          // A hook or the approver rewrote the call: its line names the input that ran, not only the model's.
          if (event.input !== undefined) call.label = `${call.label} rewritten to ${toolLabel(event.name, event.input)}`;
        }
        return;
      }
      case 'permission.request':
        this.line(this.p.yellow(`? ${event.name} needs permission (${event.reason})`));
        return;
      case 'tool.output':
        return this.toolOutput(event);
      case 'tool.denied':
        return this.toolDenied(event);
      case 'tool.progress':
        if (this.spinner.active) this.spinner.start(`${event.name}: ${truncate(event.progress, 50)}`);
        else if (this.options.verbose) this.line(this.p.dim(`  … ${event.name}: ${truncate(event.progress, 70)}`));
        return;
      case 'turn.start':
        if (this.options.verbose) this.line(this.p.dim(`── turn ${event.iteration}`));
        return;
      case 'plugin.health':
        this.line(
          event.status === 'healthy'
            ? this.p.dim(`✓ plugin ${event.plugin} is healthy again`)
            : this.p.yellow(`! plugin ${event.plugin} is ${event.status} after ${event.failures} failure(s)${event.message ? `: ${event.message}` : ''}`),
        );
        return;
      case 'plugin.log':
        if (this.options.verbose || event.level === 'warn' || event.level === 'error') {
          this.line(this.p.dim(`  [${event.plugin} ${event.level}] ${truncate(event.message, 200)}`));
        }
        return;
      case 'mcp.server.connected':
        if (this.options.verbose) this.line(this.p.dim(`✓ MCP server ${event.server} (${event.transport}): ${event.tools.length} tool(s)`));
        return;
      case 'mcp.server.closed':
        this.line(this.p.yellow(`! MCP server ${event.server} closed: ${event.reason}`));
        return;
      case 'mcp.server.error':
        this.line(this.p.yellow(`! MCP server ${event.server} ${event.code}: ${truncate(event.message, 200)}`));
        return;
      case 'events.dropped':
        this.line(this.p.yellow(`! ${event.count} events were dropped (slow output)`));
        return;
      case 'error':
        this.line(this.p.red(`error ${event.code}: ${event.message}`));
        return;
      case 'agent.end':
        return this.summary(event.result);
      case 'agent.start':
      case 'turn.end':
      case 'tool.input.delta':
      case 'hook.start':
      case 'state.change':
        return;
      case 'subagent.start':
        this.line(this.p.cyan(`▸ agent ${event.agentType}: ${truncate(event.prompt, 80)}`));
        return;
      case 'subagent.end':
        this.line(
          (event.isError ? this.p.red : this.p.cyan)(`◂ agent ${event.agentType} ${event.result.subtype} · ${event.result.turns} model call(s) · ${ms(event.result.durationMs)}`),
        );
        return;
      case 'context.compacted':
        if (this.options.verbose) this.line(this.p.dim(`── context compacted (${event.trigger})`));
        return;
      default: {
        const never: never = event;
        return never;
      }
    }
  }

  /** Stops the spinner (on abort or error paths where agent.end never came). */
  close(): void {
    this.spinner.stop();
    if (!this.atLineStart) this.write('\n');
  }

  private hookEnd(e: HostEventOf<'hook.end'>): void {
    this.totals.hookCalls++;
    this.totals.hookMs += e.durationMs;
    this.totals.fuel += e.fuelUsed ?? 0;
    const call = e.toolUseId ? this.calls.get(e.toolUseId) : undefined;
    if (call && (e.event === 'PreToolUse' || e.event === 'PermissionRequest')) {
      call.hooks.push(e);
      return;
    }
    const notable = e.decision !== 'continue' || e.failure !== undefined || e.systemMessage !== undefined;
    if (!notable && !this.options.verbose) return;
    const colour = e.failure ? this.p.red : e.decision === 'continue' || e.decision === 'allow' ? this.p.dim : this.p.yellow;
    const reason = e.reason ? `: ${truncate(e.reason, 100)}` : e.failure ? `: ${truncate(e.failure.message, 100)}` : '';
    this.line(colour(`  ↳ ${e.event} ${hookSummary(e)}${reason}`));
    if (e.systemMessage) this.line(this.p.cyan(`  ${e.systemMessage}`));
  }

  /** System messages of a call's hooks, shown under its line (they are for the user). */
  private systemMessages(call: PendingCall | undefined): void {
    for (const h of call?.hooks ?? []) if (h.systemMessage) this.line(this.p.cyan(`  ${h.hookName}: ${h.systemMessage}`));
  }

  private hooksText(call: PendingCall | undefined): string {
    if (!call || call.hooks.length === 0) return '';
    return this.p.dim(` · ${call.hooks.map(hookSummary).join(' · ')}`);
  }

  private toolOutput(e: HostEventOf<'tool.output'>): void {
    const call = this.calls.get(e.toolUseId);
    const label = call?.label ?? e.name;
    if (e.isError) this.totals.failed++;
    const mark = e.isError ? this.p.red('✗') : this.p.green('✓');
    const result = e.isError ? this.p.red(` failed: ${truncate(e.content, 80)}`) : this.p.dim(` → ${truncate(e.content, 50) || '(empty)'}`);
    const permission = call?.permission && call.permission.source !== 'hook' ? this.p.dim(` · ${call.permission.behavior} by ${call.permission.source}`) : '';
    this.line(`${mark} ${this.p.bold(label)} ${this.p.dim(ms(e.durationMs))}${result}${permission}${this.hooksText(call)}`);
    this.systemMessages(call);
    this.calls.delete(e.toolUseId);
    this.waitForNextCall();
  }

  private toolDenied(e: HostEventOf<'tool.denied'>): void {
    const call = this.calls.get(e.toolUseId);
    this.totals.denied++;
    const by = e.hookName ? `${e.hookName} (hook)` : e.source;
    this.line(`${this.p.red('⊘')} ${this.p.bold(call?.label ?? e.name)} ${this.p.red(`denied by ${by}: ${truncate(e.reason, 100)}`)}${this.hooksText(call)}`);
    this.systemMessages(call);
    this.calls.delete(e.toolUseId);
    if (e.source === 'no-callback' && !this.hintedNoCallback) {
      this.hintedNoCallback = true;
      this.line(this.p.dim('  (nobody to ask here: run on a terminal to answer, or let calls through with --permission-mode or allowedTools)'));
    }
    this.waitForNextCall();
  }

  /** Calls of a batch settle one by one; keep spinning for the next one still running. */
  private waitForNextCall(): void {
    const next = this.calls.values().next();
    if (!next.done) this.wait(`${next.value.label}…`);
  }

  private summary(result: AgentResult): void {
    this.spinner.stop();
    if (!this.atLineStart) this.write('\n');
    const t = this.totals;
    const status =
      result.subtype === 'success' ? (result.stoppedBy ? this.p.yellow('stopped') : this.p.green('success')) : this.p.red(result.subtype);
    const parts = [
      status,
      `${result.turns} model call${result.turns === 1 ? '' : 's'}`,
      `${t.toolCalls} tool call${t.toolCalls === 1 ? '' : 's'}${t.denied || t.failed ? ` (${[t.denied ? `${t.denied} denied` : '', t.failed ? `${t.failed} failed` : ''].filter(Boolean).join(', ')})` : ''}`,
      `${t.hookCalls} hook call${t.hookCalls === 1 ? '' : 's'}${t.hookCalls ? ` (${ms(t.hookMs)}${t.fuel ? `, ${count(t.fuel)} fuel` : ''})` : ''}`,
      `${count(result.usage.inputTokens)} in / ${count(result.usage.outputTokens)} out tokens`,
      ms(result.durationMs),
    ];
    this.line(this.p.dim('── ') + parts.join(this.p.dim(' · ')));
    if (result.stoppedBy) {
      const s = result.stoppedBy;
      this.line(this.p.yellow(`   ${s.event} hook ${s.hookName} said ${s.decision}${s.reason ? `: ${s.reason}` : ''}`));
    }
    if (result.error) this.line(this.p.red(`   ${result.error.code}: ${result.error.message}`));
  }

  private wait(label: string): void {
    if (!this.options.spinner) return;
    if (!this.atLineStart) this.write('\n');
    this.spinner.start(label);
  }

  private endThinking(): void {
    if (!this.inThinking) return;
    this.inThinking = false;
    if (!this.atLineStart) this.write('\n');
  }

  private write(text: string): void {
    if (text === '') return;
    this.spinner.stop();
    const body = this.prefix ? text.replace(/\n(?=.)/g, `\n${this.prefix}`) : text;
    this.options.out.write(this.atLineStart ? this.prefix + body : body);
    this.atLineStart = text.endsWith('\n');
  }

  /** Writes a whole line, starting a new one first if text was mid-line. */
  private line(text: string, newline = true): void {
    if (!this.atLineStart) this.write('\n');
    this.write(newline ? `${text}\n` : text);
  }
}
