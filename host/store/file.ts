/**
 * The data-directory store, the default of `serve`: one JSON record and one
 * JSONL transcript per session under `<dataDir>/sessions/`. Records are
 * replaced atomically (write, fsync, rename); transcripts are append-only and
 * fsynced at session boundaries (`sync`: a prompt ended, a session closed).
 * Pending control requests and leases stay in memory: they belong to the
 * running process, and a restart marks its interrupted prompts as such.
 *
 * Transcripts hold whatever the conversation held (tool outputs, file
 * contents, secrets): `sessions/` is made 0700 (tightened when it exists
 * wider) and every file in it 0600, whatever the umask, so other users of
 * the machine cannot read them.
 */
import { chmod, mkdir, readdir, rm, stat, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { WasmhooksError } from '../errors.js';
import type { Message } from '../models/types.js';
import { lockDataDir } from './dir-lock.js';
import { checkOwnPath } from './dir-owner.js';
import type { LineLimits } from '../lines.js';
import { appendJsonl, openStoreFile, readJsonl, writeAtomic } from './jsonl.js';
import { checked, readRecord } from './file-record.js';
import { MemorySessionStore } from './memory.js';
import { ByteLru } from './byte-lru.js';
import { TRANSCRIPT_CACHE_BYTES, TRANSCRIPT_LIMITS, type SessionRecord } from './types.js';

const PRIVATE_DIR = 0o700;
const RECORD = '.json';
const LEFTOVER = /\.[0-9a-f-]{36}\.tmp$/;
const TRANSCRIPT = '.jsonl';
export class FileSessionStore extends MemorySessionStore {
  override readonly kind = 'file' as const;
  readonly dir: string;
  readonly #handles = new Map<string, Promise<FileHandle>>();
  /**
   * Which transcripts are read into memory, within their cap (byte-lru.ts). The conversations themselves stay in
   * `conversations` (the memory store's); the cache decides which go.
   */
  readonly #cache: ByteLru<string, true>;
  /** Transcripts being read (two reads of one at once would race an append between them). */
  readonly #loading = new Map<string, Promise<void>>();
  /** Torn lines dropped while reading, by session (for the operator's log and the tests). */
  readonly dropped = new Map<string, number>();
  /** Releases the directory's lock (see dir-lock.ts). */
  #unlock: () => Promise<void> = async () => {};
  /**
   * Writes under way, which `close` waits for; once closed, none starts. A write nobody awaited (a session's
   * SessionEnd, stored after `close()` resolved) used to land after the store closed: a record file made again
   * in a directory its owner was removing (ENOTEMPTY) or had handed to another process.
   */
  readonly #inflight = new Set<Promise<unknown>>();
  #closed = false;

  private constructor(
    dataDir: string,
    /** What loading one transcript may read (jsonl.ts). */
    private readonly limits: LineLimits,
    maxCachedBytes: number,
  ) {
    super();
    this.dir = join(resolve(dataDir), 'sessions');
    this.#cache = new ByteLru<string, true>(maxCachedBytes, (id) => this.conversations.delete(id));
  }

  /** Bytes of transcripts held in memory now (at most `maxCachedTranscriptBytes`, but for those in use). */
  get cachedBytes(): number {
    return this.#cache.bytes;
  }

  /**
   * Opens (creating) `dataDir`, locks it for this process (STORE_UNAVAILABLE while another holds it) and reads every
   * session record in it. `limits`: what one transcript may hold when it is loaded (default `TRANSCRIPT_LIMITS`);
   * `maxCachedBytes`: what the transcripts kept in memory may hold together (default `TRANSCRIPT_CACHE_BYTES`).
   */
  static async open(dataDir: string, limits: Partial<LineLimits> = {}, maxCachedBytes = TRANSCRIPT_CACHE_BYTES): Promise<FileSessionStore> {
    const store = new FileSessionStore(dataDir, { ...TRANSCRIPT_LIMITS, ...limits }, maxCachedBytes);
    await guard(store.dir, async () => {
      await mkdir(store.dir, { recursive: true, mode: PRIVATE_DIR });
      // Before the chmod, which follows a symbolic link.
      await checkOwnPath(store.dir);
      // mkdir leaves an existing directory (and the umask trims a new one's mode): make it private either way.
      if (((await stat(store.dir)).mode & 0o777) !== PRIVATE_DIR) await chmod(store.dir, PRIVATE_DIR);
    });
    store.#unlock = await lockDataDir(store.dir);
    try {
      await store.#readRecords();
    } catch (error) {
      await store.#unlock();
      throw error;
    }
    return store;
  }

  async #readRecords(): Promise<void> {
    for (const name of await guard(this.dir, () => readdir(this.dir))) {
      // A replacement cut short by a crash (writeAtomic's temporary file): the lock says nobody else is writing it.
      if (LEFTOVER.test(name)) await rm(join(this.dir, name), { force: true });
      if (!name.endsWith(RECORD)) continue;
      const record = await readRecord(join(this.dir, name));
      if (`${record.id}${RECORD}` === name) this.records.set(record.id, record);
    }
  }

  override transcriptPath(id: string): string {
    return join(this.dir, `${checked(id)}${TRANSCRIPT}`);
  }

  override create(record: SessionRecord): Promise<boolean> {
    return this.#admit(async () => {
      checked(record.id);
      if (!(await super.create(record))) return false;
      await this.persist(record.id);
      return true;
    });
  }

  override update(id: string, patch: Partial<Pick<SessionRecord, 'prompts' | 'lastResult' | 'resumeAt'>>, fence?: number): Promise<boolean> {
    return this.#admit(async () => {
      if (!(await super.update(id, patch, fence))) return false;
      await this.persist(id);
      return true;
    });
  }

  override delete(id: string): Promise<void> {
    return this.#admit(async () => {
      checked(id);
      await this.#closeHandle(id);
      await super.delete(id);
      this.#cache.forget(id);
      await guard(this.dir, () => Promise.all([rm(join(this.dir, `${id}${RECORD}`), { force: true }), rm(this.transcriptPath(id), { force: true })]));
    });
  }

  override appendMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean> {
    return this.#admit(() =>
      this.#use(id, async () => {
        if (!(await super.appendMessages(id, messages, fence))) return false;
        const handle = await this.#handle(id);
        this.#cache.grow(id, await guard(this.dir, () => appendJsonl(handle, messages)));
        return true;
      }),
    );
  }

  override replaceMessages(id: string, messages: readonly Message[], fence?: number): Promise<boolean> {
    return this.#admit(async () => {
      if (!this.fenced(id, fence)) return false;
      await this.#closeHandle(id);
      // Checked again after the wait: a delete (and a new session under the id) meanwhile ends the token, and the
      // file written now would be that new session's transcript.
      return this.#cache.pinned(id, async () => {
        if (!(await super.replaceMessages(id, messages, fence))) return false;
        const text = messages.map((m) => `${JSON.stringify(m)}\n`).join('');
        this.#cache.set(id, true, text.length);
        await guard(this.dir, () => writeAtomic(this.transcriptPath(id), text));
        return true;
      });
    });
  }

  // The lease calls that mark a record running or not write it (`persist`): admitted like the others.
  override acquire(id: string, owner: string, ttlMs: number): Promise<number | false> {
    return this.#admit(() => super.acquire(id, owner, ttlMs));
  }

  override release(id: string, owner: string): Promise<void> {
    return this.#admit(() => super.release(id, owner));
  }

  override claimOrphan(id: string, owner: string): Promise<boolean> {
    return this.#admit(() => super.claimOrphan(id, owner));
  }

  override messages(id: string, page?: { offset: number; limit: number }): Promise<Message[]> {
    return this.#use(id, () => super.messages(id, page));
  }

  override messageCount(id: string): Promise<number> {
    return this.#use(id, () => super.messageCount(id));
  }

  override sync(id: string): Promise<void> {
    return this.#admit(async () => {
      const handle = this.#handles.get(id);
      if (handle) await guard(this.dir, async () => (await handle).sync());
    });
  }

  override async close(): Promise<void> {
    this.#closed = true;
    while (this.#inflight.size > 0) await Promise.allSettled([...this.#inflight]);
    await Promise.all([...this.#handles.keys()].map((id) => this.#closeHandle(id, true)));
    await super.close();
    await this.#unlock();
    this.#unlock = async () => {};
  }

  protected override async persist(id: string): Promise<void> {
    const record = this.records.get(id);
    if (record) await guard(this.dir, () => writeAtomic(join(this.dir, `${id}${RECORD}`), `${JSON.stringify(record)}\n`));
  }

  /**
   * Runs a call of the store's API that writes: refused once `close()` was called (nothing is created in a
   * directory whose lock this process let go), and one admitted before is waited for by `close()`.
   */
  #admit<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) {
      return Promise.reject(new WasmhooksError('STORE_UNAVAILABLE', `the session store on ${this.dir} is closed: open it again to write`));
    }
    const done = fn();
    this.#inflight.add(done);
    const forget = () => this.#inflight.delete(done);
    done.then(forget, forget);
    return done;
  }

  /** Runs `fn` on the session's transcript, loaded and kept in memory until `fn` settles. */
  #use<T>(id: string, fn: () => Promise<T>): Promise<T> {
    return this.#cache.pinned(id, async () => {
      await this.#load(id);
      return fn();
    });
  }

  async #load(id: string): Promise<void> {
    if (this.#cache.get(id)) return;
    let loading = this.#loading.get(id);
    if (!loading) {
      loading = (async () => {
        const { records, droppedBytes, bytes } = await readJsonl<Message>(this.transcriptPath(id), this.limits);
        if (droppedBytes > 0) this.dropped.set(id, droppedBytes);
        this.conversations.set(id, records);
        this.#cache.set(id, true, bytes);
      })().finally(() => this.#loading.delete(id));
      this.#loading.set(id, loading);
    }
    await loading;
  }

  #handle(id: string): Promise<FileHandle> {
    let h = this.#handles.get(id);
    if (!h) {
      const opening = guard(this.dir, () => openStoreFile(this.transcriptPath(id), 'append'));
      // A failed open is not kept: the next write tries again (the disk may have room by then).
      opening.catch(() => this.#handles.get(id) === opening && this.#handles.delete(id));
      this.#handles.set(id, (h = opening));
    }
    return h;
  }

  async #closeHandle(id: string, sync = false): Promise<void> {
    const h = this.#handles.get(id);
    if (!h) return;
    this.#handles.delete(id);
    const handle = await h.catch(() => undefined);
    if (!handle) return;
    if (sync) await handle.sync().catch(() => {});
    await handle.close();
  }
}

/** File-system failures as `STORE_UNAVAILABLE`, naming the directory. */
async function guard<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof WasmhooksError) throw error;
    throw new WasmhooksError('STORE_UNAVAILABLE', `the data directory ${dir} cannot be written: ${(error as Error).message}`);
  }
}
