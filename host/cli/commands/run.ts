/** `wasmhooks run "prompt"`: one session, rendered or as JSON lines. */
import process from 'node:process';
import { resolve } from 'node:path';
import type { AgentResult, HostEvent } from '../../events/types.js';
import { CliError, EXIT, exitCodeOf, type ExitCode } from '../exit.js';
import { useColor, type CliIO } from '../io.js';
import { createRecorder, isRecorderHook, type Recorder } from '../record.js';
import { EventRenderer } from '../render.js';
import { terminalPermission } from '../ask.js';
import { setupHost, type HostFlags } from '../setup.js';
import type { WorkspaceFlags } from '../workspace.js';

export interface RunFlags extends HostFlags, WorkspaceFlags {
  json?: boolean;
  record?: string;
  verbose?: boolean;
  /** `--no-ask`: never ask at the terminal (undecided calls are denied). */
  ask?: boolean;
}

const hidden = (e: HostEvent) => (e.type === 'hook.start' || e.type === 'hook.end') && isRecorderHook(e.hookName);

export async function runCommand(prompt: string, flags: RunFlags, io: CliIO): Promise<ExitCode> {
  if (prompt.trim() === '') throw new CliError('run: the prompt is empty; write what the agent should do, e.g. wasmhooks run "list the files"', EXIT.USAGE);
  const recorder: Recorder | undefined = flags.record ? createRecorder(resolve(io.cwd, flags.record)) : undefined;
  const controller = new AbortController();
  const interrupt = () => controller.abort(new DOMException('interrupted (SIGINT)', 'AbortError'));
  // A person at a terminal answers the permission question; elsewhere no answer means no.
  const ask = !flags.json && flags.ask !== false && process.stdin.isTTY === true && io.stdout.isTTY;
  const setup = await setupHost(flags, io, {
    ...(recorder ? { hooks: recorder.hooks } : {}),
    ...(ask ? { canUseTool: terminalPermission(interrupt) } : {}),
    workspace: flags,
  }).catch(async (error: unknown) => {
    await recorder?.close().catch(() => {});
    throw error;
  });
  const renderer = flags.json
    ? undefined
    : new EventRenderer({ out: io.stdout, color: useColor(io.stdout, io.env), spinner: io.stdout.isTTY, verbose: flags.verbose ?? false });

  let interrupts = 0;
  const onSigint = () => {
    // First Ctrl-C aborts the run cleanly; a second one leaves at once.
    if (++interrupts > 1) process.exit(EXIT.ABORTED);
    interrupt();
  };
  process.on('SIGINT', onSigint);

  let result: AgentResult | undefined;
  try {
    const session = setup.host.session();
    for await (const event of session.stream(prompt, { signal: controller.signal })) {
      if (hidden(event)) continue;
      if (renderer) renderer.render(event);
      else io.stdout.write(`${JSON.stringify(event)}\n`);
      if (event.type === 'agent.end') result = event.result;
    }
    await session.close();
  } finally {
    process.off('SIGINT', onSigint);
    renderer?.close();
    await setup.close();
    await recorder?.close();
  }
  if (recorder && !flags.json) io.stderr.write(`recorded ${recorder.count} hook inputs to ${flags.record}\n`);
  if (!result) throw new CliError('the run ended without a result (agent.end never came)');
  return exitCodeOf(result);
}
