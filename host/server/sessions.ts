/**
 * Sessions created over HTTP, kept in the session store: a record (options,
 * prompt count, last result, the replica running it) and the conversation.
 * A prompt runs on the replica that received it, under a lease in the store
 * (one prompt per session across replicas; 409 elsewhere), in the background
 * (the POST returns at once). The session object is built from the store
 * when needed: after a restart, or on a replica that did not create it.
 */
import { messageOf } from '../errors.js';
import { isRecord } from '../json.js';
import type { Message } from '../models/types.js';
import type { ReplicaCall, ReplicaCalls } from '../sessions/calls.js';
import { heartbeat } from '../sessions/heartbeat.js';
import { LeaseGate } from '../sessions/lease-gate.js';
import { acquireWhenReady, type Lease } from '../sessions/ready.js';
import { runLeased } from '../sessions/run.js';
import type { ResumeAt, SessionRecord } from '../store/types.js';
import { resumeAtOf } from '../store/transcript.js';
import { controlResponseSchemas, type ControlRequest, type WireSubtype } from './control-types.js';
import type { ControlBroker } from './control.js';
import { ApiError, remoteRefusal, validationError } from './errors.js';
import { PerClient } from './per-client.js';
import { buildLive, retire, type Live, type LiveDeps } from './live-session.js';
import { sessionView, type CreateSessionInput, type SessionView } from './session-view.js';

export interface RegistryDeps extends LiveDeps {
  /** This process's name in leases and routed calls. */
  replica: string;
  leaseMs: number;
  calls: ReplicaCalls;
  maxSessions: number;
  maxSessionsPerAddress: number;
}

export class SessionRegistry {
  readonly #live = new Map<string, Live>();
  readonly #runs = new Set<Promise<void>>();
  /** Sessions whose prompt is being started here (between the checks and `running`). */
  readonly #starting = new Set<string>();
  #accepting = true;
  /** `create` calls past the count check whose record is not stored yet. */
  #creating = 0;
  /** Sessions created here by each remote address (a creation under way holds a `creating:` slot). */
  readonly #perClient: PerClient<string>;

  constructor(private readonly d: RegistryDeps) {
    this.#perClient = new PerClient('maxSessionsPerAddress', d.maxSessionsPerAddress, 'sessions');
  }

  /**
   * Creates a session; `address`: the client's, counted against `maxSessionsPerAddress`. `clearedFrom`: the
   * session it replaces (`clear`), whose options it takes: its first prompt fires SessionStart `clear`.
   */
  async create(input: CreateSessionInput, address?: string, clearedFrom?: string): Promise<SessionView> {
    this.#assertAccepting();
    const slot = `creating:${crypto.randomUUID()}`;
    await this.#perClient.admit(address, slot, async (id) => id.startsWith('creating:') || this.has(id));
    const { title, ...options } = input;
    // Checked before the store's create, counting this replica's creations under way (concurrent POSTs would
    // otherwise all pass one count): replicas racing may overshoot by a few, never without bound.
    this.#creating++;
    let id: string;
    let record: SessionRecord;
    try {
      const held = (await this.d.store.count()) + this.#creating - 1;
      if (held >= this.d.maxSessions) {
        throw new ApiError('too_many_sessions', `this server holds ${held} sessions, its maxSessions (${this.d.maxSessions}); delete one (DELETE /session/:id) or raise maxSessions`);
      }
      // Built at once so the host may pick the id (and so bad hookCallbacks fail the request).
      const live = await this.#build(crypto.randomUUID(), options, [], undefined, clearedFrom);
      id = live.id;
      record = { id, ...(title ? { title } : {}), createdAt: Date.now(), prompts: 0, options, ...(clearedFrom ? { clearedFrom } : {}) };
      try {
        if (!(await this.d.store.create(record))) throw new ApiError('conflict', `session ${id} exists`);
      } catch (error) {
        await this.#drop(id, true);
        throw error;
      }
      this.#perClient.add(address, id);
    } finally {
      this.#creating--;
      this.#perClient.remove(slot);
    }
    if (this.d.store.shared) await this.#drop(id, false);
    this.d.hub.emit('session.created', { sessionId: id, ...(clearedFrom ? { clearedFrom } : {}) });
    return sessionView(record, this.#live.get(record.id), []);
  }

  /**
   * Claude Code's `/clear`: a new session with this one's options (not its title) under a new id, whose first
   * prompt fires SessionStart `clear`; then this one ends (SessionEnd `clear`). It stays stored: prompts continue
   * it. Under its prompt lease, so no prompt runs meanwhile (409 while one does).
   */
  async clear(id: string, address?: string): Promise<SessionView> {
    this.#assertAccepting();
    await this.#record(id);
    const busy = () => new ApiError('conflict', `session ${id} is running a prompt; wait for agent.end or POST /session/${id}/abort, then clear it`);
    return this.#underLease(id, busy, false, async () => {
      const held = await this.#record(id);
      // Its options were checked when it was created (remote hook events too, again as it is built).
      const view = await this.create(held.options as CreateSessionInput, address, id);
      // Built here when it is not (a restart, another replica): its SessionEnd hooks run with its conversation.
      if (!this.#live.has(id)) await this.#rebuild(held);
      await this.#drop(id, 'clear');
      return view;
    });
  }

  async has(id: string): Promise<boolean> {
    return (await this.d.store.get(id)) !== undefined;
  }

  /** One page of the sessions, and how many there are: only the page's pending questions are read. */
  async list(page: { offset: number; limit: number }): Promise<{ views: SessionView[]; total: number }> {
    const [shown, total] = await Promise.all([this.d.store.list(page), this.d.store.count()]);
    return { views: await Promise.all(shown.map(async (r) => sessionView(r, this.#live.get(r.id), await this.d.store.controls(r.id)))), total };
  }

  async get(id: string): Promise<SessionView> {
    return sessionView(await this.#record(id), this.#live.get(id), await this.d.store.controls(id));
  }

  /** One page of the conversation, and how many messages it holds. */
  async messages(id: string, page: { offset: number; limit: number }): Promise<{ messages: Message[]; total: number }> {
    await this.#record(id);
    const [messages, total] = await Promise.all([this.d.store.messages(id, page), this.d.store.messageCount(id)]);
    return { messages, total };
  }

  async controls(id: string): Promise<ControlRequest[]> {
    await this.#record(id);
    return this.d.store.controls(id);
  }

  /** Starts a prompt in the background; 409 while one runs on any replica. */
  async prompt(id: string, text: string): Promise<void> {
    this.#assertAccepting();
    const record = await this.#record(id);
    const busy = () => new ApiError('conflict', `session ${id} is running a prompt; wait for agent.end or POST /session/${id}/abort`);
    // A prompt whose agent.end is out but whose lease is not yet released is waited for (host/sessions/ready.ts).
    const live = await this.#underLease(id, busy, true, async ({ fence, acquiredAt }) => {
      // Read again under the lease: another replica's prompt may have ended since the read above (moving
      // `resumeAt` and `prompts` on); the copy read before would repeat its seqs.
      const held = (await this.d.store.get(id)) ?? record;
      // Rebuilt (a restart, another replica, a shared store after each prompt): its events and prompts count on.
      const live = this.#live.get(id) ?? (await this.#rebuild(held));
      if (live.session.state !== 'idle') throw busy();
      live.fence = fence;
      if (this.d.store.shared) live.gate = new LeaseGate(this.d.leaseMs, acquiredAt, live.publish, () => live.session.abort());
      try {
        // resumeAt's reservation, stored before the first event: a prompt cut off anywhere is counted past.
        // With the token: a prompt taken over while it started (its store stalled a lease long) does not count itself.
        if ((await this.d.store.update(id, { prompts: held.prompts + 1 }, fence)) === false) throw busy();
        // Refused: the session was deleted (404) or taken over since the count; the prompt must not run on regardless.
        if ((await live.transcript?.reserve()) === false) {
          await this.#record(id);
          throw busy();
        }
      } catch (error) {
        if (live.fence === fence) Object.assign(live, { fence: undefined, gate: undefined });
        throw error;
      }
      live.running = true;
      return live;
    });
    const run = this.#run(id, live, text);
    this.#runs.add(run);
    void run.finally(() => this.#runs.delete(run));
  }

  /**
   * Runs `fn` under the session's prompt lease, taken here (`busy`, a 409, while a prompt holds it or is being
   * started): let go when `fn` throws, and when it returns unless `keep` (a prompt's run holds it on, runLeased).
   */
  async #underLease<T>(id: string, busy: () => ApiError, keep: boolean, fn: (lease: Lease) => Promise<T>): Promise<T> {
    if (this.#starting.has(id)) throw busy();
    this.#starting.add(id);
    try {
      const lease = await acquireWhenReady(this.d.store, id, this.d.replica, this.d.leaseMs, () => this.#live.get(id)?.running === true);
      if (lease === false) throw busy();
      // Renewed while `fn` runs (a clear's SessionEnd hooks may outlast the lease); a prompt's run renews it on.
      const stop = heartbeat(this.d.store, id, this.d.replica, this.d.leaseMs, lease.fence);
      let kept = false;
      try {
        const result = await fn(lease);
        kept = keep;
        return result;
      } finally {
        stop();
        if (!kept) await this.d.store.release(id, this.d.replica).catch(() => {});
      }
    } finally {
      this.#starting.delete(id);
    }
  }

  async #run(id: string, live: Live, text: string): Promise<void> {
    try {
      await runLeased(this.d, id, live.session, live.transcript, text, live.fence, live.gate);
    } finally {
      live.running = false;
      live.fence = undefined;
      live.gate = undefined;
      if (this.d.store.shared) await this.#drop(id, false);
    }
  }

  /** Whether this replica runs a prompt of the session now (its sweep does not report it interrupted). */
  runsHere(id: string): boolean {
    return this.#live.get(id)?.running === true || this.#starting.has(id);
  }

  /** Returns whether a prompt was running (here or on the replica that runs it). */
  async abort(id: string): Promise<boolean> {
    await this.#record(id);
    return this.#abortHere(id) || (await this.#forward(id, { op: 'abort', sessionId: id })) === true;
  }

  async respond(id: string, requestID: string, subtype: WireSubtype, response: unknown) {
    await this.#record(id);
    const here = this.d.broker.pending(id).some((r) => r.id === requestID);
    const request = here ? undefined : (await this.d.store.controls(id)).find((r) => r.id === requestID);
    // Held here, or held nowhere: the local broker gives the exact verdict (session or subtype mismatch, not pending).
    if (!request) return this.d.broker.respond(id, requestID, subtype, response);
    // Checked here too, so a bad answer is a 400 from whichever replica got it.
    if (request.subtype === subtype) {
      const parsed = controlResponseSchemas[request.subtype].safeParse(response);
      if (!parsed.success) throw validationError(parsed.error, 'response');
    }
    const answer = await this.#forward(id, { op: 'respond', sessionId: id, requestID, subtype, response });
    if (answer === undefined) return { resolved: false as const, reason: 'not-pending' as const };
    if (isRecord(answer) && 'resolved' in answer) return answer as ReturnType<ControlBroker['respond']>;
    // The owner refused the answer (its own checks, e.g. an elicitation schema): the same 400 it would have sent.
    throw remoteRefusal(answer);
  }

  async cancel(id: string, requestID?: string, subtype?: WireSubtype): Promise<number> {
    await this.#record(id);
    const here = this.d.broker.cancel(id, requestID, 'cancelled', subtype);
    const there = await this.#forward(id, { op: 'cancel', sessionId: id, ...(requestID ? { requestID } : {}), ...(subtype ? { subtype } : {}) });
    return here + (typeof there === 'number' ? there : 0);
  }

  /** What this replica does for a call forwarded by another. */
  async handleCall(call: ReplicaCall): Promise<unknown> {
    switch (call.op) {
      case 'abort':
        return this.#abortHere(call.sessionId);
      case 'cancel':
        return this.d.broker.cancel(call.sessionId, call.requestID, 'cancelled', call.subtype);
      case 'respond':
        try {
          return this.d.broker.respond(call.sessionId, call.requestID, call.subtype, call.response);
        } catch (error) {
          return error instanceof ApiError ? { error: messageOf(error), code: error.code, ...(error.path ? { path: error.path } : {}) } : { error: messageOf(error) };
        }
      default: {
        const never: never = call;
        return never;
      }
    }
  }

  async delete(id: string): Promise<void> {
    await this.#record(id);
    // A replica that runs the prompt but does not answer is dead: its lease expires and the sweep settles it.
    await this.abort(id).catch(() => false);
    await this.d.store.delete(id);
    this.#perClient.remove(id);
    await this.#drop(id, true);
    this.d.hub.emit('session.deleted', { sessionId: id });
  }

  /** Refuses new sessions and prompts (shutdown has begun). */
  stopAccepting(): void {
    this.#accepting = false;
  }

  /**
   * Shutdown: running prompts are aborted and waited for (their transcripts
   * and results stored, leases released), then local sessions are closed.
   * Stored sessions stay: another replica or the next start continues them.
   */
  async closeAll(graceMs = 5000): Promise<void> {
    this.#accepting = false;
    for (const id of this.#live.keys()) this.#abortHere(id);
    await Promise.race([Promise.allSettled([...this.#runs]), new Promise((r) => setTimeout(r, graceMs))]);
    await Promise.allSettled([...this.#live.keys()].map((id) => this.#drop(id, true)));
    this.d.remoteHooks.close();
  }

  #abortHere(id: string): boolean {
    this.d.broker.cancel(id, undefined, 'aborted');
    const live = this.#live.get(id);
    if (!live?.running) return false;
    live.session.abort();
    return true;
  }

  /** Sends `call` to the replica running the session's prompt, if that is another one. */
  async #forward(id: string, call: ReplicaCall): Promise<unknown> {
    const owner = await this.d.store.leaseOwner(id);
    if (!owner || owner === this.d.replica) return undefined;
    return this.d.calls.call(owner, call);
  }

  async #build(id: string, options: SessionRecord['options'], history: readonly Message[], resumeAt?: ResumeAt, clearedFrom?: string): Promise<Live> {
    const live = await buildLive(this.d, id, options, history, resumeAt, clearedFrom ? 'clear' : undefined);
    this.#live.set(live.id, live);
    return live;
  }

  /** The session object of a stored session, from its record and conversation. */
  async #rebuild(held: SessionRecord): Promise<Live> {
    return this.#build(held.id, held.options, await this.d.store.messages(held.id), resumeAtOf(held), held.clearedFrom);
  }

  /** Forgets the session object here; `close` also ends it (SessionEnd hooks, `clear`: cleared) after its last writes. */
  async #drop(id: string, close: boolean | 'clear'): Promise<void> {
    const live = this.#live.get(id);
    if (!live) return;
    this.#live.delete(id);
    await retire(live, this.d.remoteHooks, close);
  }

  #assertAccepting(): void {
    if (!this.#accepting) throw new ApiError('unavailable', 'the server is shutting down; retry on another replica or after the restart');
  }

  async #record(id: string): Promise<SessionRecord> {
    const record = await this.d.store.get(id);
    if (!record) throw new ApiError('not_found', `no session ${id}`);
    return record;
  }
}
