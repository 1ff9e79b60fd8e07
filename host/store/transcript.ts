/**
 * Keeps a stored conversation in step with a running session: at each loop
 * boundary (`turn.end`, `agent.end`) the messages added since the last write
 * are appended; after a compaction the whole conversation is replaced. The
 * end of a prompt is a durability point (`store.sync`). Writes run one after
 * another in event order; a failed write is reported, and the next boundary
 * retries from where the store stopped. At a prompt's end it also records
 * where a session rebuilt from the store goes on counting (`resumeAt`: the
 * last `seq` and prompt number; while a prompt runs, a bound reserved ahead,
 * host/store/resume-at.ts), so that one session's events keep one order
 * across restarts, replicas and prompts that never ended. Events outside a
 * prompt (a manual `compact()`) are counted in too.
 */
import type { HostEvent, HostEventOf } from '../events/types.js';
import type { Message } from '../models/types.js';
import { RESUME_AT_RESERVE } from './resume-at.js';
import type { ResumeAt, SessionRecord, SessionStore } from './types.js';

export { resumeAtOf } from './resume-at.js';

export interface TranscriptSource {
  readonly messages: readonly Message[];
  subscribe(fn: (event: HostEvent) => void, options?: { buffer?: number }): () => void;
  /** When the session has it (`Session.holdEnd`), a prompt's `agent.end` goes out only after its writes: read-your-writes. */
  holdEnd?(hold: (end: HostEventOf<'agent.end'>) => Promise<unknown>): () => void;
  /** When the session has it (`Session.holdClose`), `close()` resolves once SessionEnd's events are written. */
  holdClose?(hold: (lastSeq: number) => Promise<unknown>): () => void;
}

export interface Transcript {
  /** Resolves when every write so far is done (rejects with the last failure, once). */
  flush(): Promise<void>;
  /**
   * Stores the next prompt's reservation and waits for it (a server, under the lease, before the prompt starts);
   * false when the store refused the token (the session was deleted or taken over since the lease was taken).
   */
  reserve(): Promise<boolean>;
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
  counters: {
    /** Where the session's counting starts (a continued session's `resumeAt`). */
    from?: { seq: number; turn: number } | undefined;
    /**
     * The fencing token writes carry (a server: its prompt's lease, `SessionStore.acquire`): a write the store refuses
     * (the session was taken over) is not retried here. `null`: write nothing (a shared store between prompts).
     */
    fence?: () => number | null | undefined;
    /** Called when the store refuses a write made with a token: the session was taken over. */
    refused?: () => void;
    /**
     * A library session's record (a server creates its own): created before the first write when the store has
     * none, so `resumeAt` and the prompt count have somewhere to go and `host.resume` counts on from them.
     */
    record?: SessionRecord;
  } = {},
): Transcript {
  let rewrite = false;
  let failure: unknown;
  const { record } = counters;
  // An existing record (a resumed session's) is kept: `create` refuses to replace one.
  let chain: Promise<void> = !record
    ? Promise.resolve()
    : store.create(record).then(
        () => {},
        (error: unknown) => {
          failure = error;
          onError(error);
        },
      );
  let seq = counters.from?.seq ?? 0;
  let turn = counters.from?.turn ?? 0;
  /** The bound last reserved for the running prompt (no reservation: -1). */
  let reserved = -1;
  let inPrompt = false;
  let between = false;
  /** Writes the store refused for their token, so far. */
  let refusals = 0;
  const reserve = (forTurn: number) => {
    reserved = seq + RESUME_AT_RESERVE;
    write(false, { seq: reserved, turn: forTurn, open: true });
  };
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
        const fence = counters.fence?.();
        // Only `false` is a refusal (a store written before fencing tokens answers nothing).
        const ours =
          fence !== null &&
          (replace ? await store.replaceMessages(id, batch, fence) : batch.length === 0 || (await store.appendMessages(id, batch, fence))) !== false &&
          // A server counts its prompts itself (under the lease); a library session's are its prompt numbers.
          (!resumeAt || (await store.update(id, record ? { resumeAt, prompts: resumeAt.turn } : { resumeAt }, fence)) !== false);
        if (!ours) {
          if (typeof fence === 'number') {
            refusals++;
            counters.refused?.();
          }
          // Not ours any more (another replica took the session over and may run the next prompt): write nothing
          // more; should this session hold a lease again (one process), its next write is a whole rewrite.
          saved = Math.min(saved, from);
          rewrite = true;
          return;
        }
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
  /** The seq of the last agent.end written while it was held (its publication then writes nothing more). */
  let endWritten = -1;
  const end = (event: HostEventOf<'agent.end'>) => {
    seq = event.seq;
    inPrompt = false;
    reserved = -1;
    write(true, { seq, turn });
  };
  const unhold = session.holdEnd?.((event) => {
    end(event);
    endWritten = event.seq;
    return chain;
  });
  /** Events outside a prompt are written once their burst is out (a microtask), or at once for a closing session. */
  const writeBetween = () => {
    if (!between) return;
    between = false;
    if (!inPrompt) write(false, { seq, turn });
  };
  /** A `close()` waiting for the events up to `last` to be seen (then written): `holdClose`. */
  let closing: { last: number; seen: () => void } | undefined;
  const seenUpTo = () => {
    if (closing === undefined || seq < closing.last) return;
    const { seen } = closing;
    closing = undefined;
    writeBetween();
    seen();
  };
  const unholdClose = session.holdClose?.(async (last) => {
    await new Promise<void>((seen) => {
      closing = { last, seen };
      seenUpTo();
    });
    await chain;
  });
  const subscribed = session.subscribe(
    (event) => {
      onEvent(event);
      seenUpTo();
    },
    { buffer: Number.POSITIVE_INFINITY },
  );
  function onEvent(event: HostEvent): void {
    // Every event counts (a sub-agent's too: they share the session's seq).
    seq = event.seq;
    if (inPrompt && seq > reserved - RESUME_AT_RESERVE / 2) reserve(turn);
    if (event.agentId !== undefined) return;
    if (event.type === 'context.compacted') rewrite = true;
    if (event.type === 'agent.start') {
      turn = event.turn;
      inPrompt = true;
      // A server reserved before the prompt started; a library session reserves now.
      if (seq > reserved - RESUME_AT_RESERVE / 2) reserve(turn);
    } else if (event.type === 'turn.end') write(false);
    else if (event.type === 'agent.end') {
      if (event.seq !== endWritten) end(event);
    } else if (!inPrompt && !between) {
      // Outside a prompt (a manual compaction, SessionEnd): one exact write once the burst of events is out.
      between = true;
      queueMicrotask(writeBetween);
    }
  }
  return {
    async reserve() {
      const before = refusals;
      reserve(turn + 1);
      await this.flush();
      return refusals === before;
    },
    async flush() {
      await chain;
      if (failure !== undefined) {
        const f = failure;
        failure = undefined;
        throw f;
      }
    },
    stop() {
      subscribed();
      unhold?.();
      unholdClose?.();
    },
  };
}
