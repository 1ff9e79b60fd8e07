/**
 * Keeps a stored conversation in step with a running session: at each loop
 * boundary (`turn.end`, `agent.end`) the messages added since the last write
 * are appended; after a compaction the whole conversation is replaced. The
 * end of a prompt is a durability point (`store.sync`). Writes run one after
 * another in event order; a failed write is reported, and the next boundary
 * retries from where the store stopped. At a prompt's end it also records
 * where a session rebuilt from the store goes on counting (`resumeAt`: the
 * last `seq` and prompt number), so that one session's events keep one order
 * across restarts and replicas.
 */
import type { HostEvent } from '../events/types.js';
import type { Message } from '../models/types.js';
import { RESUME_AT_MAX, type ResumeAt, type SessionRecord, type SessionStore } from './types.js';

const COUNTER = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= RESUME_AT_MAX;

/** A record's `resumeAt` when it is usable (a damaged one is ignored: the session counts from 0 as before). */
export function resumeAtOf(record: SessionRecord | undefined): ResumeAt | undefined {
  // Read from files or Redis: anything (null, a string, an array) may be there.
  const r: unknown = record?.resumeAt;
  if (typeof r !== 'object' || r === null) return undefined;
  const { seq, turn } = r as Partial<Record<keyof ResumeAt, unknown>>;
  return COUNTER(seq) && COUNTER(turn) ? { seq, turn } : undefined;
}

export interface TranscriptSource {
  readonly messages: readonly Message[];
  subscribe(fn: (event: HostEvent) => void, options?: { buffer?: number }): () => void;
}

export interface Transcript {
  /** Resolves when every write so far is done (rejects with the last failure, once). */
  flush(): Promise<void>;
  stop(): void;
}

/**
 * @example
 * const t = persistTranscript(session, store, session.id, session.messages.length);
 * await session.prompt('hi'); await t.flush();
 */
export function persistTranscript(
  session: TranscriptSource,
  store: SessionStore,
  id: string,
  saved: number,
  onError: (error: unknown) => void = () => {},
): Transcript {
  let chain: Promise<void> = Promise.resolve();
  let rewrite = false;
  let failure: unknown;
  let turn = 0;
  const write = (sync: boolean, resumeAt?: ResumeAt) => {
    const all = session.messages;
    const replace = rewrite || all.length < saved;
    const batch = replace ? all.slice() : all.slice(saved);
    if (!replace && batch.length === 0 && !sync && !resumeAt) return;
    const from = saved;
    saved = all.length;
    rewrite = false;
    chain = chain.then(async () => {
      try {
        if (replace) await store.replaceMessages(id, batch);
        else if (batch.length > 0) await store.appendMessages(id, batch);
        // Only an existing record is updated: a library session without one keeps counting from 0 when resumed.
        if (resumeAt) await store.update(id, { resumeAt });
        if (sync) await store.sync(id);
      } catch (error) {
        // Unwritten: the next boundary writes these again (a whole rewrite, as the position is uncertain).
        saved = Math.min(saved, from);
        rewrite = true;
        failure = error;
        onError(error);
      }
    });
  };
  const off = session.subscribe(
    (event) => {
      if (event.agentId !== undefined) return;
      if (event.type === 'context.compacted') rewrite = true;
      else if (event.type === 'agent.start') turn = event.turn;
      else if (event.type === 'turn.end') write(false);
      else if (event.type === 'agent.end') write(true, { seq: event.seq, turn });
    },
    { buffer: Number.POSITIVE_INFINITY },
  );
  return {
    async flush() {
      await chain;
      if (failure !== undefined) {
        const f = failure;
        failure = undefined;
        throw f;
      }
    },
    stop: off,
  };
}
