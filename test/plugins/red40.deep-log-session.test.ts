// red40, through a real agent session: a plugin tool that recurses to just short of the stack limit
// and logs there. Its lines went, inside the host call, through the session's whole listener chain
// (the tool's sink, the progress gate, the session's emit, the event bus): on the few KB left the
// chain threw a RangeError that was swallowed, so the session's watchers missed lines, and the bus
// could be left frozen, after which a subscriber heard nothing more. Lines are now delivered after
// the call, off the plugin's stack (test/fixtures/deep-log.ts; the same on Node, Deno and Bun
// against dist/: test/xrt/red40-deeplog.xrt.ts).
// Fails on the old code: "depth 17615 (ok): heard 38 of 48 lines, the first "17615:17605"", and three more.
import { expect, it } from 'vitest';
import { createHost } from '../../host/host.js';
import { scriptedModel } from '../../host/models/scripted.js';
import { loadPlugin } from '../../host/plugins/index.js';
import { deepSessionProblems } from '../fixtures/deep-log.js';
import { hostile } from '../xrt/wat.ts';

it('a plugin tool that logs just short of the stack limit, in a session: every line reaches the prompt\'s stream and the session\'s subscriber, in order, and so does every later event (red40)', async () => {
  expect(await deepSessionProblems({ createHost, scriptedModel, loadPlugin }, await hostile('deep-log'))).toEqual([]);
}, 120_000);
