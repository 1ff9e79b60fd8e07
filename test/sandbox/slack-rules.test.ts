// The rules deadline tests judge a stopped call's rounds by (test/fixtures/slack.ts): a test helper
// that decides pass or fail gets tests of its own, so loosening it for a loaded machine cannot
// quietly let a late stop through.
import { describe, expect, it } from 'vitest';
import { slackKept, stopRounds } from '../fixtures/slack.js';

const DEADLINE = 50; // slack: 100 ms
const round = (wallMs: number, cpuMs: number) => ({ value: 0, wallMs, cpuMs });
const onTime = round(60, 55);
const paused = round(493, 130); // late by both clocks (CI, Bun: 493/110 in one round of `answer_then_swallow`)

describe('slackKept', () => {
  it('takes a round over the slack by less than the measuring overhead (10 ms) on both clocks', () => {
    expect(slackKept(DEADLINE, [onTime, round(104, 102), round(101, 105), onTime]).everyRound).toBe(true);
    expect(slackKept(DEADLINE, [onTime, round(112, 111), round(115, 120), onTime]).everyRound).toBe(false);
  });
  it('takes a slow round that was short of CPU (a lost time slice)', () => {
    expect(slackKept(DEADLINE, [round(400, 40), onTime, onTime])).toEqual({ everyRound: true, bestRound: true });
  });
  it('refuses a round late by both clocks with too few on-time rounds after it', () => {
    expect(slackKept(DEADLINE, [onTime, paused, onTime, onTime]).everyRound).toBe(false);
  });
  it('takes one late round followed by five on time (a pause inside one call)', () => {
    expect(slackKept(DEADLINE, [onTime, paused, onTime, onTime, onTime, onTime, onTime]).everyRound).toBe(true);
  });
  it('refuses two late rounds however many are on time (a late stop repeats)', () => {
    const rounds = [onTime, paused, onTime, onTime, onTime, onTime, onTime, paused, onTime, onTime, onTime, onTime, onTime];
    expect(slackKept(DEADLINE, rounds).everyRound).toBe(false);
  });
  it('refuses rounds none of which was on time by the wall clock', () => {
    expect(slackKept(DEADLINE, [round(150, 20), round(150, 20), round(150, 20)]).bestRound).toBe(false);
  });
});

describe('stopRounds', () => {
  // Spins until this process has used `ms` of CPU (not of wall time: a starved spin would not be late by
  // both clocks, and the test would depend on the machine's load).
  const busy = (ms: number) => {
    const before = process.cpuUsage();
    for (;;) {
      const used = process.cpuUsage(before);
      if ((used.user + used.system) / 1000 >= ms) return;
    }
  };
  const scripted = (ms: number[]) => {
    let i = 0;
    return async () => busy(ms[i++] ?? 5);
  };

  it('runs the minimum when every round is on time', async () => {
    expect(await stopRounds(DEADLINE, scripted([5, 5, 5]), () => {})).toHaveLength(3);
  });
  it('runs five more rounds after a single late one, then judges them', async () => {
    const rounds = await stopRounds(DEADLINE, scripted([5, 150, 5, 5, 5, 5, 5]), () => {});
    expect(rounds).toHaveLength(7);
    expect(slackKept(DEADLINE, rounds).everyRound).toBe(true);
  });
  it('stops at the second late round: the stop is late', async () => {
    const rounds = await stopRounds(DEADLINE, scripted([5, 150, 5, 150, 5, 5, 5, 5]), () => {});
    expect(rounds).toHaveLength(4);
    expect(slackKept(DEADLINE, rounds).everyRound).toBe(false);
  });
});
