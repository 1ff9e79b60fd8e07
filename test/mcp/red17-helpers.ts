// Process checks for the red17 tests (vitest and xrt share them).
import { readFileSync } from 'node:fs';

/** Whether `pid` runs (a zombie waiting for a reaper that is not init does not count). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Waits up to `ms` for `pid` to stop running. */
export async function untilDead(pid: number, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (alive(pid)) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
