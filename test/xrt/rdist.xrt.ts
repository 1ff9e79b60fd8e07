// rdist (red team of how plugins and config reach a user's machine) on Node, Deno and Bun against the build.
// Each fails on the code before.
// 1. wasmhooks.lock, which comes with a cloned repository and is read on every load of its config: a FIFO hung
//    the load, a link to /dev/zero was read until the string length ran out, a huge one was read whole.
// Vitest twin: test/config/rdist-lock-file.test.ts.
import * as dist from '../../dist/index.js';
import { lockFileNotRegular } from '../config/rdist-lock-file.ts';
import { nodeTwin } from './twin.ts';

export const scenarios: Record<string, () => Promise<void>> = {
  'a wasmhooks.lock that is a FIFO, a link to /dev/zero or past 4 MiB is refused unread, at once': nodeTwin('test/config/rdist-lock-file.test.ts', 'lockFileNotRegular', () =>
    lockFileNotRegular({ loadConfig: dist.loadConfig, materializeConfig: dist.materializeConfig as never })),
};
