/**
 * What a plugin says while it runs: its `log_*` lines and its progress
 * messages, each under per-call caps checked before a line is decoded (a
 * flood is counted, not delivered), and log lines from elsewhere (WASI
 * stdout/stderr) under the same caps. The engine's host functions
 * (engine-imports.ts) hand these out behind the same `final` as the others.
 *
 * Nothing is passed on during the call: what the plugin says is queued, in
 * order, and `deliverMessages` hands it to the listeners once the call has
 * ended (the engine, however it ended). In-thread, a host function runs on
 * the plugin's own stack: a plugin that recursed to just short of the limit
 * and then logged left the embedder's listener chain (a session, the event
 * bus, its subscribers) a few KB, and the RangeError there lost the line in
 * silence, or left the bus frozen (red40).
 */
import type { CallContext, ExtismPluginOptions } from '@extism/extism';
import { safely } from '../errors.js';
import { HostRefusal, clip } from './failures.js';
import { freeBlock } from './host-call.js';
import type { Limits } from './types.js';

const encoder = new TextEncoder();

/** Extism's own host-function type (its arguments are the plugin's i64/i32 values). */
export type HostFunction = NonNullable<ExtismPluginOptions['functions']>[string][string];

/** The part of the engine's call scope these functions read and count in. */
export interface MessageScope {
  readonly limits: Readonly<Limits>;
  /** Progress text the current call reported so far, in bytes. */
  progressBytes: number;
  /** Progress messages the current call reported so far (delivered up to MAX_PROGRESS_MESSAGES_PER_CALL). */
  progressMessages: number;
  onProgress: ((message: string) => void) | undefined;
  /** This call's log lines: delivered, and dropped past the caps. */
  log: { lines: number; bytes: number; dropped: number };
  onLog: ((level: string, message: string) => void) | undefined;
  /** What the call said so far, in order, for `deliverMessages`; bounded by the caps above. */
  said: Said[];
}

/** One thing a plugin said: a log line (its level), or a progress message (`PROGRESS`). A worker sends these with its answer. */
export type Said = readonly [level: string, text: string];
/** Not a log level: the mark of a progress message in a `Said`. */
export const PROGRESS = 'progress';

/**
 * Progress messages passed on per call. maxProgressBytes bounds their text, not their number: a
 * million 1-byte messages (1,000 fuel each) were a million `tool.progress` events for one call.
 */
export const MAX_PROGRESS_MESSAGES_PER_CALL = 10_000;
const PROGRESS_DROPPED = `[more progress dropped: over ${MAX_PROGRESS_MESSAGES_PER_CALL} messages in one call]`;

/** Plugin log lines passed on per call; a log flood beyond this is counted, not delivered. */
export const MAX_LOG_LINES_PER_CALL = 1_000;
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

/** A level as a log line carries it: one of `LOG_LEVELS` (anything else, from a worker or an embedder, is `info`). */
export const logLevel = (level: string): (typeof LOG_LEVELS)[number] =>
  LOG_LEVELS.includes(level as (typeof LOG_LEVELS)[number]) ? (level as (typeof LOG_LEVELS)[number]) : 'info';

/** `wasmhooks:host` `progress`: the text is queued for the running call's `onProgress`, within maxProgressBytes and the message count. */
export function progress(scope: MessageScope): HostFunction {
  return (cc: CallContext, address: bigint) => {
    const block = cc.read(address);
    if (block === null) return;
    const max = scope.limits.maxProgressBytes;
    scope.progressBytes += block.arrayBuffer().byteLength;
    if (scope.progressBytes > max) {
      throw new HostRefusal(
        'OUTPUT_TOO_LARGE',
        `the plugin reported ${scope.progressBytes} bytes of progress in one call, more than maxProgressBytes (${max})`,
      );
    }
    // Each message is an event for every watcher: past the count, dropped (one note), as log lines are.
    if (++scope.progressMessages > MAX_PROGRESS_MESSAGES_PER_CALL) {
      if (scope.progressMessages === MAX_PROGRESS_MESSAGES_PER_CALL + 1) scope.said.push([PROGRESS, PROGRESS_DROPPED]);
      return;
    }
    if (scope.onProgress) scope.said.push([PROGRESS, block.text()]);
  };
}

/**
 * Extism's log_* with the caps checked before the line is decoded: past
 * `MAX_LOG_LINES_PER_CALL` lines or `maxLogBytes` bytes a line is only
 * counted. The block is freed, as Extism does.
 */
export function log(scope: MessageScope, level: (typeof LOG_LEVELS)[number]): HostFunction {
  return (cc: CallContext, address: bigint) => {
    const block = cc.read(address);
    if (block === null) throw new HostRefusal('TRAP', `the plugin called log_${level} with an invalid block address (${address})`);
    if (scope.onLog) lineOut(scope, level, block.arrayBuffer().byteLength, () => block.text());
    freeBlock(cc, address);
  };
}

/** A log line from elsewhere (WASI stdout/stderr), under the same per-call caps as log_*, queued with them. */
export function queueLog(scope: MessageScope, level: string, line: string): void {
  if (scope.onLog) lineOut(scope, level, encoder.encode(line).byteLength, () => line);
}

/**
 * At the end of a call (returned, trapped, stopped, refused) or of building an instance: what it
 * said, in order, to the listeners, then, if it dropped log lines, one line that says how many and
 * why. Called off the plugin's stack; a listener that throws loses only its own message.
 */
export function deliverMessages(scope: MessageScope): void {
  const log = scope.log;
  if (log.dropped > 0) {
    const message = `${log.dropped} more log lines dropped (limits per call: ${MAX_LOG_LINES_PER_CALL} lines, ${scope.limits.maxLogBytes} bytes, maxLogBytes)`;
    log.dropped = 0;
    scope.said.push(['warn', clip(message)]);
  }
  const said = scope.said;
  if (said.length === 0) return;
  // Taken first: a listener may start the next call, which says things of its own.
  scope.said = [];
  tell(said, scope);
}

/** `said` to the listeners, in order; a listener that throws loses only its own message. */
export function tell(said: readonly Said[], to: Partial<Pick<MessageScope, 'onLog' | 'onProgress'>>): void {
  for (const [level, text] of said) {
    if (level === PROGRESS) safely(() => to.onProgress?.(text));
    else safely(() => to.onLog?.(level, text));
  }
}

function lineOut(scope: MessageScope, level: string, bytes: number, text: () => string): void {
  const log = scope.log;
  log.lines++;
  if (log.lines > MAX_LOG_LINES_PER_CALL || log.bytes + bytes > scope.limits.maxLogBytes) {
    log.dropped++;
    return;
  }
  log.bytes += bytes;
  scope.said.push([level, text()]);
}
