/**
 * stdout and stderr as log lines: bytes are decoded as UTF-8 across writes,
 * cut at newlines, and lines longer than `MAX_LINE_CHARS` are passed on in
 * pieces, so no write can make one huge log event.
 */

/** A log line longer than this is passed on in pieces. */
const MAX_LINE_CHARS = 4096;

export type StdioLevel = 'info' | 'warn';

export class LineSink {
  #pending = '';
  readonly #decoder = new TextDecoder();

  constructor(
    readonly level: StdioLevel,
    private readonly log: (level: StdioLevel, line: string) => void,
  ) {}

  write(bytes: Uint8Array): void {
    let text = this.#pending + this.#decoder.decode(bytes, { stream: true });
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
      this.#line(text.slice(0, nl));
      text = text.slice(nl + 1);
    }
    while (text.length > MAX_LINE_CHARS) {
      this.log(this.level, text.slice(0, MAX_LINE_CHARS));
      text = text.slice(MAX_LINE_CHARS);
    }
    this.#pending = text;
  }

  /** Passes on an unfinished last line (at the end of a call). */
  flush(): void {
    const rest = this.#pending + this.#decoder.decode();
    this.#pending = '';
    if (rest) this.log(this.level, rest);
  }

  #line(line: string): void {
    for (let at = 0; at < line.length || at === 0; at += MAX_LINE_CHARS) this.log(this.level, line.slice(at, at + MAX_LINE_CHARS));
  }
}
