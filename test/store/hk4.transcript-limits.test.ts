// hk4: transcripts were read whole (readFile, split): a multi-GB file or one endless line took all the memory
// there was, and a huge file without a newline was "a torn write" truncated to nothing. They are now read a
// line at a time within caps (size checked first, bytes a line, lines), with STORE_UNAVAILABLE naming the file
// and the line, and nothing is truncated or loaded then.
import { mkdtemp, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../host/store/open.js';
import { FileSessionStore } from '../../host/store/file.js';
import { readJsonl } from '../../host/store/jsonl.js';

async function storeWith(transcript: string | number, limits: Record<string, number> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'hk4-transcript-'));
  const opened = await openStore({ kind: 'file', dataDir, ...limits });
  await opened.store.create({ id: 's1', createdAt: 1, prompts: 0, options: {} });
  const path = (opened.store as FileSessionStore).transcriptPath('s1');
  if (typeof transcript === 'string') await writeFile(path, transcript);
  else {
    await writeFile(path, '');
    await truncate(path, transcript);
  }
  return { opened, path };
}

describe('reading a transcript within limits', () => {
  it('refuses one past the default size before reading it, and leaves it as it was', async () => {
    // Sparse: 300 MiB of zeros without a newline (before: read whole, then truncated to 0 bytes as a torn line).
    const { opened, path } = await storeWith(300 << 20);
    await expect(opened.store.messages('s1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/s1\.jsonl: the transcript is 300 MiB, over the 256 MiB/) });
    expect((await stat(path)).size).toBe(300 << 20);
    await opened.close();
  });

  it('refuses one of more lines than the default (100,000), naming the line', async () => {
    const { opened } = await storeWith('{"role":"user","content":"x"}\n'.repeat(100_001));
    await expect(opened.store.messageCount('s1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/s1\.jsonl:100001: the transcript holds more than 100000 lines/) });
    await opened.close();
  });

  it('refuses a line past maxTranscriptLineBytes (as the line grows, across chunks), naming it', async () => {
    const long = JSON.stringify({ role: 'user', content: 'y'.repeat(200_000) });
    const { opened, path } = await storeWith(`{"role":"user","content":"a"}\n${long}\n`, { maxTranscriptLineBytes: 100_000 });
    await expect(opened.store.messages('s1')).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/s1\.jsonl:2: the transcript line 2 is longer than 100000 bytes/) });
    expect((await readFile(path, 'utf8')).length).toBe(31 + long.length);
    await opened.close();
  });

  it('reads lines across chunk boundaries as before: UTF-8 split by a chunk, a torn last line cut off', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hk4-jsonl-'));
    const path = join(dir, 't.jsonl');
    const records = Array.from({ length: 40 }, (_, i) => ({ i, text: '€😀'.repeat(1000 + i) }));
    const clean = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    await writeFile(path, `${clean}{"i":40,"te`);
    const read = await readJsonl<{ i: number; text: string }>(path);
    expect(read.records).toEqual(records);
    expect(read.droppedBytes).toBe(11);
    expect(await readFile(path, 'utf8')).toBe(clean);
    // A last complete line that is garbage is a torn write too; garbage before another line is corruption.
    await writeFile(path, `${clean}{"i":40,"te\n`);
    expect((await readJsonl(path)).droppedBytes).toBe(12);
    await writeFile(path, `${clean}{"i":40,"te\n{"i":41}\n`);
    await expect(readJsonl(path)).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/t\.jsonl:41 is not JSON/) });
  });
});

describe('reading session records at open', () => {
  it('refuses a record past 256 MiB before reading it, naming it (the store does not open)', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'hk4-record-'));
    await (await openStore({ kind: 'file', dataDir })).close();
    const path = join(dataDir, 'sessions', 'big.json');
    await writeFile(path, '');
    await truncate(path, 300 << 20);
    await expect(openStore({ kind: 'file', dataDir })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/big\.json: it is 314572800 bytes, over the 268435456 a session record may hold/) });
  });
});
