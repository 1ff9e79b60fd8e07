/**
 * Reading a line-per-record file (a session transcript, a recorded events
 * file) a chunk at a time, within caps. Both were read whole: a file of
 * several GB, or one endless line, took all the memory there was (or broke
 * the string limit, a crash) before a single line was looked at. Here the
 * size is checked before anything is read, one line holds at most
 * `maxLineBytes`, and the count of lines is bounded too (each becomes an
 * object in memory, however short it is).
 */
import type { FileHandle } from 'node:fs/promises';

export interface LineLimits {
  /** Bytes of the whole file. */
  maxBytes: number;
  /** Bytes of one line, its newline left out. */
  maxLineBytes: number;
  maxLines: number;
}

export interface Line {
  /** 1-based. */
  number: number;
  text: string;
  /** Bytes of the line in the file, its newline left out. */
  bytes: number;
  /** False for a last line without its newline (a write cut short). */
  ended: boolean;
}

/** A cap a file went past: `line` names where (0: the file as a whole). */
export class LineLimitError extends Error {
  override readonly name = 'LineLimitError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

const CHUNK = 1 << 16;
const NEWLINE = 10;
const mib = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(n % (1 << 20) === 0 ? 0 : 1)} MiB` : `${n} bytes`);

/** The lines of `handle` from its start, as they are read (a newline inside a UTF-8 sequence cannot occur). */
export async function* readLines(handle: FileHandle, limits: LineLimits): AsyncGenerator<Line> {
  const { size } = await handle.stat();
  if (size > limits.maxBytes) throw new LineLimitError(`is ${mib(size)}, over the ${mib(limits.maxBytes)} this reads`, 0);
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(CHUNK);
  let pieces: Uint8Array[] = [];
  let pending = 0;
  let number = 0;
  let total = 0;
  const line = (end: Uint8Array, ended: boolean): Line => {
    const bytes = pending + end.length;
    let joined = end;
    if (pieces.length > 0) {
      joined = new Uint8Array(bytes);
      let at = 0;
      for (const p of [...pieces, end]) {
        joined.set(p, at);
        at += p.length;
      }
    }
    pieces = [];
    pending = 0;
    return { number, text: decoder.decode(joined), bytes, ended };
  };
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
    if (bytesRead === 0) break;
    total += bytesRead;
    // The file grew while it was read.
    if (total > limits.maxBytes) throw new LineLimitError(`grew past the ${mib(limits.maxBytes)} this reads`, number + 1);
    let from = 0;
    for (let at = buffer.indexOf(NEWLINE, 0); at !== -1 && at < bytesRead; at = buffer.indexOf(NEWLINE, from)) {
      number++;
      if (number > limits.maxLines) throw new LineLimitError(`holds more than ${limits.maxLines} lines`, number);
      if (pending + at - from > limits.maxLineBytes) throw tooLong(number, limits);
      yield line(buffer.slice(from, at), true);
      from = at + 1;
    }
    if (from < bytesRead) {
      pending += bytesRead - from;
      if (pending > limits.maxLineBytes) throw tooLong(number + 1, limits);
      pieces.push(buffer.slice(from, bytesRead));
    }
  }
  if (pending > 0) {
    number++;
    if (number > limits.maxLines) throw new LineLimitError(`holds more than ${limits.maxLines} lines`, number);
    yield line(new Uint8Array(0), false);
  }
}

function tooLong(number: number, limits: LineLimits): LineLimitError {
  return new LineLimitError(`line ${number} is longer than ${mib(limits.maxLineBytes)}`, number);
}
