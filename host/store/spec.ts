/**
 * What `openStore` accepts, checked before anything is opened or connected: a
 * typo (`replayWindow: -1`, `'10000'`, a prefix with a space, an `http://`
 * URL) was passed on as it was, to fail later as "Redis is unreachable", as
 * a Redis error at the first write (`MAXLEN ~ NaN`), or not at all (a
 * negative age trimmed the whole replay log). Messages name the field and
 * never echo a URL: it may carry the Redis password.
 */
import { z } from 'zod';
import { lazy } from '../lazy.js';

/** Bounds of the file store's transcript limits (jsonl.ts): a line past 256 MiB cannot become one string everywhere. */
const MAX_LINE_BYTES = 256 << 20;

const whole = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what} must be a number` })
    .int({ error: `${what} must be a whole number` })
    .min(min, { error: `${what} must be at least ${min}` })
    .max(max, { error: `${what} must be at most ${max}` });

/** Where ioredis reads a URL: scheme, host, port, `/db`; credentials may be in it (never shown). */
function redisUrl(value: string, ctx: z.RefinementCtx): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'url does not parse as a URL; expected redis://[:password@]host[:port][/db] or rediss://…' });
    return;
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    ctx.addIssue({ code: 'custom', message: `url must be a redis:// or rediss:// URL (rediss: TLS), not ${url.protocol}//` });
  } else if (url.pathname !== '' && url.pathname !== '/' && !/^\/\d{1,5}$/.test(url.pathname)) {
    ctx.addIssue({ code: 'custom', message: 'url path must be a database number (/0, /1, …)' });
  }
}

/** What loading one conversation may take in, file store and Redis alike (TRANSCRIPT_LIMITS the defaults). */
const transcriptLimits = () => ({
  /** Bytes one session's transcript may hold when it is loaded (default 256 MiB). */
  maxTranscriptBytes: whole('maxTranscriptBytes', 1, 2 ** 32).optional(),
  /** Bytes one message's line may hold (default 128 MiB). */
  maxTranscriptLineBytes: whole('maxTranscriptLineBytes', 1, MAX_LINE_BYTES).optional(),
  /** Lines (messages) one transcript may hold (default 100,000). */
  maxTranscriptLines: whole('maxTranscriptLines', 1, 10_000_000).optional(),
});

export const storeSpecSchema = lazy(() =>
  z.discriminatedUnion(
    'kind',
    [
      z.strictObject({ kind: z.literal('memory') }),
      z.strictObject({
        kind: z.literal('file'),
        dataDir: z.string({ error: 'dataDir must be a path' }).min(1, { error: 'dataDir must not be empty' }),
        ...transcriptLimits(),
        /** Bytes of transcripts kept in memory together, least recently used dropped first (default 256 MiB). */
        maxCachedTranscriptBytes: whole('maxCachedTranscriptBytes', 0, 2 ** 40).optional(),
      }),
      z.strictObject({
        kind: z.literal('redis'),
        url: z.string({ error: 'url must be a redis:// or rediss:// URL' }).superRefine(redisUrl),
        prefix: z
          .string({ error: 'prefix must be a string' })
          .regex(/^[A-Za-z0-9:._-]{1,64}$/, { error: 'prefix (the Redis key prefix) must be 1-64 of A-Z a-z 0-9 : . _ -' })
          .optional(),
        /** Events kept for reconnecting clients (default 10,000). */
        replayWindow: whole('replayWindow', 1, 1_000_000).optional(),
        /** Events older than this are trimmed from the replay log (default: none). */
        replayMaxAgeMs: whole('replayMaxAgeMs', 1_000, 365 * 24 * 3_600_000).optional(),
        ...transcriptLimits(),
      }),
    ],
    { error: 'kind must be memory, file or redis' },
  ),
);

/** Where sessions are kept: in memory, in a data directory, or in Redis (shared by replicas). */
export type StoreSpec = z.input<ReturnType<typeof storeSpecSchema>>;
