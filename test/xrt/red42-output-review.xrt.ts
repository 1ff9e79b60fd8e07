// Every output hook reviews the text the conversation keeps, on Node, Deno and Bun against the build
// (test/agent/red42.output-review.ts; vitest twin: test/agent/red42.output-review.test.ts): a PostToolUse
// stop no longer skips the output hooks after it, and secret-redactor reviews failed calls' text too.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createHost, loadPlugin, scriptedModel } from '../../dist/index.js';
import { failedCallRedacted, stopBeforeRedactor, type OutputReviewApi } from '../agent/red42.output-review.ts';

const { cannedPlugin } = (await import(new URL('../fixtures/canned.ts', import.meta.url).href)) as typeof import('../fixtures/canned.js');
const redactor = new Uint8Array(await readFile(new URL('../../plugins/secret-redactor/build/secret-redactor.wasm', import.meta.url)));
const api = { createHost, loadPlugin, scriptedModel, cannedPlugin, redactor } as unknown as OutputReviewApi;

export const scenarios: Record<string, () => Promise<void>> = {
  'a PostToolUse stop (a WASM plugin, a JS hook) before secret-redactor: the turn stops, and the output it keeps is still redacted': async () => {
    assert.deepEqual(await stopBeforeRedactor(api), []);
  },
  "secret-redactor redacts a failed call's text (Bash's stdout before exit 1, an MCP server's isError result), which stays an error": async () => {
    assert.deepEqual(await failedCallRedacted(api), []);
  },
};
