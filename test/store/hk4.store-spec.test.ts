// hk4: openStore's options were not checked: a replayWindow of -1 or "5", a negative replayMaxAgeMs, a typo'd
// field went on to fail as "Redis is unreachable" (or at the first write, or never). The spec is checked with
// zod before anything is opened: INVALID_OPTIONS naming the field, never echoing the URL (it holds the password).
import { describe, expect, it } from 'vitest';
import { openStore, type StoreSpec } from '../../host/store/open.js';

// Port 1: nothing listens there; a spec that got past the checks would be STORE_UNAVAILABLE.
const url = 'redis://:s3cret@127.0.0.1:1/0';

const refused: Array<[string, unknown, RegExp]> = [
  ['a negative replay window', { kind: 'redis', url, replayWindow: -1 }, /replayWindow must be at least 1/],
  ['a replay window as a string', { kind: 'redis', url, replayWindow: '500' }, /replayWindow must be a number/],
  ['a fractional replay window', { kind: 'redis', url, replayWindow: 1.5 }, /replayWindow must be a whole number/],
  ['a replay window past 1,000,000', { kind: 'redis', url, replayWindow: 5e6 }, /replayWindow must be at most 1000000/],
  ['a negative replay age', { kind: 'redis', url, replayMaxAgeMs: -5 }, /replayMaxAgeMs must be at least 1000/],
  ['a misspelt option', { kind: 'redis', url, replaywindow: 5 }, /replaywindow/],
  ['an http URL', { kind: 'redis', url: 'http://:s3cret@127.0.0.1:1' }, /url must be a redis:\/\/ or rediss:\/\/ URL \(rediss: TLS\), not http:\/\//],
  ['a URL that does not parse', { kind: 'redis', url: 'redis//:s3cret@host' }, /url does not parse/],
  ['a path that is no database', { kind: 'redis', url: 'redis://:s3cret@127.0.0.1:1/x/y' }, /url path must be a database number/],
  ['a key prefix with a space', { kind: 'redis', url, prefix: 'my app:' }, /prefix \(the Redis key prefix\) must be 1-64/],
  ['an empty data directory', { kind: 'file', dataDir: '' }, /dataDir must not be empty/],
  ['a zero line cap', { kind: 'file', dataDir: '/tmp/x', maxTranscriptLines: 0 }, /maxTranscriptLines must be at least 1/],
  ['a line cap past 256 MiB', { kind: 'file', dataDir: '/tmp/x', maxTranscriptLineBytes: 2 ** 30 }, /maxTranscriptLineBytes must be at most/],
  ['an unknown kind', { kind: 'postgres' }, /kind must be memory, file or redis/],
];

describe('openStore checks its spec first', () => {
  for (const [what, spec, message] of refused) {
    it(`refuses ${what} with INVALID_OPTIONS naming it`, async () => {
      const error = await openStore(spec as StoreSpec).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string },
      );
      expect(error).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(message) });
      expect(error!.message).not.toContain('s3cret');
    });
  }

  it('passes a good spec on (then fails only on the unreachable server)', async () => {
    await expect(openStore({ kind: 'redis', url, prefix: 'app:', replayWindow: 500, replayMaxAgeMs: 60_000 })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });
});
