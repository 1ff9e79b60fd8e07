/**
 * `openStore(spec)`: the one way to get a session store (and, for Redis, the
 * shared event log). Backends load on demand, so the main entry pulls in no
 * file-system or Redis code until one is asked for.
 *
 * @example
 * const opened = await openStore({ kind: 'file', dataDir: '.wasmhooks' });
 * const host = createHost({ store: opened.store });
 * const again = await host.resume(sessionId);
 */
import { WasmhooksError } from '../errors.js';
import { parse } from '../host-options.js';
import { storeSpecSchema, type StoreSpec } from './spec.js';
import type { LineLimits } from '../lines.js';
import { TRANSCRIPT_LIMITS, type EventLog, type SessionStore } from './types.js';

export type { StoreSpec } from './spec.js';

export interface OpenedStore {
  readonly store: SessionStore;
  /** The shared event log (Redis only; otherwise the server keeps its own ring in memory). */
  readonly eventLog?: EventLog;
  /** For logs: what was opened, without secrets. */
  readonly description: string;
  close(): Promise<void>;
}

/** The spec's transcript limits, as `LineLimits` (those not given left out: the defaults apply). */
function transcriptLimits(spec: { maxTranscriptBytes?: number | undefined; maxTranscriptLineBytes?: number | undefined; maxTranscriptLines?: number | undefined }): Partial<LineLimits> {
  const { maxTranscriptBytes: maxBytes, maxTranscriptLineBytes: maxLineBytes, maxTranscriptLines: maxLines } = spec;
  return { ...(maxBytes ? { maxBytes } : {}), ...(maxLineBytes ? { maxLineBytes } : {}), ...(maxLines ? { maxLines } : {}) };
}

/** Opens the store `spec` names; a spec that does not check out is `INVALID_OPTIONS` naming the field, before anything is opened. */
export async function openStore(given: StoreSpec): Promise<OpenedStore> {
  const spec = parse(storeSpecSchema(), given, 'store');
  switch (spec.kind) {
    case 'memory': {
      const { MemorySessionStore } = await import('./memory.js');
      const store = new MemorySessionStore();
      return { store, description: 'memory', close: () => store.close() };
    }
    case 'file': {
      const { FileSessionStore } = await import('./file.js');
      const store = await FileSessionStore.open(spec.dataDir, transcriptLimits(spec), spec.maxCachedTranscriptBytes);
      return { store, description: `data directory ${store.dir.replace(/[/\\]sessions$/, '')}`, close: () => store.close() };
    }
    case 'redis': {
      const prefix = spec.prefix ?? 'wasmhooks:';
      const [{ connectRedis, describeUrl }, { RedisSessionStore }, { RedisEventLog }] = await Promise.all([
        import('./redis-client.js'),
        import('./redis.js'),
        import('./redis-log.js'),
      ]);
      const redis = await connectRedis(spec.url);
      try {
        const store = new RedisSessionStore(redis, spec.url, prefix, { ...TRANSCRIPT_LIMITS, ...transcriptLimits(spec) });
        const eventLog = await RedisEventLog.open(redis, spec.url, {
          capacity: spec.replayWindow ?? 10_000,
          prefix,
          ...(spec.replayMaxAgeMs ? { maxAgeMs: spec.replayMaxAgeMs } : {}),
        });
        return {
          store,
          eventLog,
          description: `redis ${describeUrl(spec.url)}`,
          async close() {
            await eventLog.close();
            await store.close();
            redis.disconnect();
          },
        };
      } catch (error) {
        redis.disconnect();
        throw error;
      }
    }
    default: {
      const never: never = spec;
      throw new WasmhooksError('INVALID_OPTIONS', `unknown store ${JSON.stringify(never)}`);
    }
  }
}
