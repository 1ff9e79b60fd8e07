// The replay server behind the openaiModel tests (openai.test.ts: streaming, openai-failures.test.ts):
// one server per test, closed after it.
import { afterEach } from 'vitest';
import { openaiModel } from '../../host/models/openai.js';
import { collect, recordingRetry, request } from './helpers.js';
import { type Reply, type ReplayServer, replayServer } from './replay-server.js';

/** The test's server (a test may start its own: `replay.server = await replayServer(…)`); closed after each test. */
export const replay: { server: ReplayServer | undefined } = { server: undefined };
afterEach(async () => {
  await replay.server?.close();
  replay.server = undefined;
});

/** One streamed request of gpt-4o-mini against a replay server answering `replies` in turn. */
export async function run(replies: Reply[], extra: Partial<Parameters<typeof openaiModel>[0]> = {}) {
  const server = (replay.server = await replayServer(replies));
  const { waits, retry } = recordingRetry();
  const model = openaiModel({ model: 'gpt-4o-mini', baseURL: `${server.url}/v1`, apiKey: 'sk-test', retry, ...extra });
  const events = await collect(model.stream(request(extra.model ? {} : {})));
  return { events, waits, seen: server.seen };
}
