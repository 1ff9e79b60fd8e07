// Every output hook reviews the text the conversation keeps (red42.output-review.ts; the same on Node, Deno and
// Bun against dist/ in test/xrt/red42-output-review.xrt.ts).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createHost, loadPlugin, scriptedModel } from '../../host/index.js';
import { cannedPlugin } from '../fixtures/canned.js';
import { failedCallRedacted, stopBeforeRedactor } from './red42.output-review.js';

const redactor = new Uint8Array(readFileSync(new URL('../../plugins/secret-redactor/build/secret-redactor.wasm', import.meta.url)));
const api = { createHost, loadPlugin, scriptedModel, cannedPlugin, redactor };

it('a PostToolUse stop (a WASM plugin, a JS hook) before secret-redactor: the turn stops, and the output it keeps is still redacted', async () => {
  expect(await stopBeforeRedactor(api)).toEqual([]);
});

it("secret-redactor redacts a failed call's text (Bash's stdout before exit 1, an MCP server's isError result), which stays an error", async () => {
  expect(await failedCallRedacted(api)).toEqual([]);
});
