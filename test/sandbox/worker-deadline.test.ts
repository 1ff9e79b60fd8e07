// A worker's deadline must not depend on when its thread started. Deno's and Bun's workers read their
// `performance.timeOrigin` off the wall clock when they start, so a clock step between the host's start and
// a worker's (NTP's first sync on a fresh CI machine) moved a deadline computed as `deadlineAt - timeOrigin`
// by the whole step: CI saw worker calls time out at once, twice in a row. Reproduced by hand with
// `date -s "+10 seconds"` after the host started (Deno and Bun: "ran past its deadline of 5000 ms" at once;
// with this code: the call runs). A test cannot step the machine's clock, so the rule is held here: the
// deadline travels as time left plus the wall clock at the post, and no thread reads `timeOrigin`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workerDeadline, type RequestMeta } from '../../host/sandbox/worker/channel.js';

const meta = (m: Partial<RequestMeta>): RequestMeta => ({ fn: 'hook', timeoutMs: 5_000, fuel: 1e9, ...m });

describe('workerDeadline', () => {
  it('counts from the host start of the call: time left at the post less the wait', () => {
    expect(workerDeadline(meta({ left: { ms: 4_990, postedAt: 1_000_000 } }), 50, 1_000_030)).toBe(50 + 4_990 - 30);
  });

  it('a wall clock stepped back during the wait is no wait (never more than the time left)', () => {
    expect(workerDeadline(meta({ left: { ms: 4_990, postedAt: 1_000_000 } }), 50, 990_000)).toBe(50 + 4_990);
  });

  it('a wall clock stepped forward during the wait ends the call no earlier than now', () => {
    expect(workerDeadline(meta({ left: { ms: 4_990, postedAt: 1_000_000 } }), 50, 1_010_000)).toBe(50);
  });

  it('without time left (no deadline sent), the timeout counts from now', () => {
    expect(workerDeadline(meta({}), 50, 1_000_000)).toBe(5_050);
  });

  it('no host code reads performance.timeOrigin (per thread, from the wall clock at its start)', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && /\btimeOrigin\b/.test(readFileSync(path, 'utf8').replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ''))) {
          offenders.push(path);
        }
      }
    };
    walk('host');
    expect(offenders).toEqual([]);
  });
});
