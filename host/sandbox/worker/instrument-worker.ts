/**
 * The instrumenting worker's entry: runs one load job (instrument-job.ts)
 * off the host's thread and sends back the bytes, or the error as its code
 * and message so the host throws the same one (off-thread.ts).
 */
import { WasmhooksError, messageOf } from '../../errors.js';
import { runJob, type InstrumentJob, type JobAnswer } from '../instrument-job.js';
import { loadAdapter } from './thread.js';

const adapter = await loadAdapter();
const job = await adapter.receive<InstrumentJob>();
let answer: JobAnswer;
try {
  answer = { ok: true, bytes: runJob(job) };
} catch (error) {
  answer = { ok: false, code: error instanceof WasmhooksError ? error.code : undefined, message: messageOf(error) };
}
// The instrumented bytes move rather than copy: the host's thread never pays for a copy of a large module.
await adapter.reply(answer, answer.ok ? [answer.bytes.buffer as ArrayBuffer] : []);
