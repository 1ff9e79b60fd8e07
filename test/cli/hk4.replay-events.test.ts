// hk4: `plugin test --events` read its file whole; now a line at a time within caps (256 MiB, 64 MiB a line,
// 100,000 lines), with a usage error naming the file and the line.
import { truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cannedGuard, cli, workspace } from './helpers.js';

const input = '{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/","tool_name":"Bash","tool_input":{}}\n';

describe('plugin test --events within limits', () => {
  it('refuses a file of more than 100,000 lines, naming the line (exit 2)', async () => {
    const dir = await workspace({ 'deny.wasm': cannedGuard('deny'), 'many.jsonl': input.repeat(100_001) });
    const r = await cli(['plugin', 'test', 'deny.wasm', '--events', 'many.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/many\.jsonl:100001: --events holds more than 100000 lines; split the file/);
  });

  it('refuses a file past 256 MiB before reading it (exit 2)', async () => {
    const dir = await workspace({ 'deny.wasm': cannedGuard('deny'), 'huge.jsonl': input });
    await truncate(join(dir, 'huge.jsonl'), 300 << 20);
    const r = await cli(['plugin', 'test', 'deny.wasm', '--events', 'huge.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/huge\.jsonl: --events is 300 MiB, over the 256 MiB this reads/);
  });
});
