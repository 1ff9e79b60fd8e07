/**
 * One tool call's execution step (tool-batch.ts's "execute"): the input
 * check, the handler's run raced against the prompt's signal, and its
 * progress and log lines (withheld while an output hook reviews the call).
 * Never throws: every failure is an error outcome for the model.
 */
import { messageOf } from '../errors.js';
import type { ToolInputCheck, ToolOutcome } from '../tools/types.js';
import type { RegisteredTool } from '../tools/registry.js';
import type { BatchScope } from './permission-question.js';
import type { ToolCallRequest } from './model-turn.js';
import { windsDownOnAbort } from './subagent.js';
import { ProgressGate } from './progress-gate.js';

/** One call as it moves through the steps (pi-mono's PreparedToolCall). */
export interface ToolCallRun {
  readonly call: ToolCallRequest;
  /** The input as the model sent it, path fields resolved; `undefined` when it is not a JSON object. */
  readonly input: Record<string, unknown> | undefined;
  /** What the model gets; set once the call is denied or finalized. */
  result?: { content: string; isError: boolean };
  /** Set by prepare when the call may run: the input the tool gets (after rewrites). */
  approved?: Record<string, unknown>;
  outcome?: ToolOutcome;
  durationMs: number;
}

/** Runs the approved call; the outcome the model gets (`execute` times it). */
export async function runTool(b: BatchScope, r: ToolCallRun): Promise<ToolOutcome> {
  const { config, emit, signal } = b;
  const { call } = r;
  if (r.input === undefined) return { content: `the input of ${call.name} must be a JSON object`, isError: true };
  const tool = config.tools.get(call.name);
  if (!tool) return { content: `no tool named "${call.name}" is available`, isError: true };
  const checked = check(tool.validate, r.approved ?? {});
  if (!checked.ok) return { content: `invalid input for ${call.name}: ${checked.message}`, isError: true };

  const aborted = new AbortRace(call.name);
  const gate = new ProgressGate(b.ctx.registry, call.name, b.common.session_id);
  signal.addEventListener('abort', aborted, { once: true });
  try {
    const running = Promise.resolve().then(() =>
      tool.handler.run(checked.value, {
        signal,
        toolUseId: call.id,
        context: b.common,
        onProgress: (progress) => {
          // Progress after the call settled (a timer the tool left behind) would land after its tool.output.
          if (signal.aborted || aborted.settled) return;
          // Withheld while an output hook (a redactor) reviews this call: progress-gate.ts.
          const shown = gate.pass(String(progress));
          if (shown !== undefined) emit({ type: 'tool.progress', toolUseId: call.id, name: call.name, progress: shown });
        },
        onLog: (line) => {
          // A plugin tool's log lines: this session's, and withheld like its progress while an output hook reviews the call.
          if (signal.aborted || aborted.settled) return;
          const shown = gate.pass(line.message, 'log');
          if (shown !== undefined) emit({ type: 'plugin.log', plugin: line.plugin, level: line.level, message: shown });
        },
      }),
    );
    const out = windsDownOnAbort(tool.handler) ? await running : await Promise.race([running, aborted.promise]);
    if (typeof out?.content !== 'string') return { content: `tool ${call.name} returned no text content`, isError: true };
    return { content: out.content, isError: out.isError === true };
  } catch (e) {
    return { content: `tool ${call.name} failed: ${messageOf(e)}`, isError: true };
  } finally {
    aborted.settled = true;
    signal.removeEventListener('abort', aborted);
  }
}

/** A tool's input check; one that throws (an app's `validate`) fails the call, never the loop. */
function check(validate: RegisteredTool['validate'], input: Record<string, unknown>): ToolInputCheck {
  try {
    return validate(input);
  } catch (e) {
    return { ok: false, message: `the input check threw: ${messageOf(e)}` };
  }
}

/** What a tool run races: settles with the aborted outcome when the prompt's signal fires. Its own listener (`handleEvent`): no closure per run. */
class AbortRace {
  readonly promise: Promise<ToolOutcome>;
  /** The run settled (or lost the race): its progress no longer counts. */
  settled = false;
  #resolve!: (outcome: ToolOutcome) => void;

  constructor(private readonly toolName: string) {
    this.promise = new Promise((resolve) => (this.#resolve = resolve));
  }

  handleEvent(): void {
    this.#resolve({ content: `${this.toolName} was aborted`, isError: true });
  }
}
