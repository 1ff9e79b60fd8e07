/**
 * A cap on what a peer's streamed answer may make the host buffer: a whole
 * body, or for an event stream each event (bytes since the last blank line).
 * An SSE parser holds an event, and a line, until it ends, whatever its size:
 * a server that never ends one (an endless line, or lines without a blank one)
 * grows memory for as long as it keeps sending, and an idle timeout never fires.
 * Used for MCP servers (mcp/bounds.ts) and model providers (models/sse.ts).
 * Lines are counted by LF; a stream framed by lone CRs counts as one line.
 */

/** Passes bytes on while the body (or, for an event stream, the event since the last blank line) is within `max`; past it the stream errors with `tooLarge()`. */
export function cappedBody(max: number, events: boolean, tooLarge: () => Error): TransformStream<Uint8Array, Uint8Array> {
  /** Bytes of the body, or of the event stream's current event before its current line. */
  let size = 0;
  /** Event streams: bytes of the current line so far, and its last byte (a blank line may be a lone CR). */
  let line = 0;
  let last = 0;
  return new TransformStream({
    transform(chunk, controller) {
      if (!events) size += chunk.byteLength;
      else {
        let from = 0;
        for (let i = chunk.indexOf(10); i !== -1; from = i + 1, i = chunk.indexOf(10, from)) {
          if (i > from) (line += i - from), (last = chunk[i - 1]!);
          // A blank line ends the event: the next one starts from nothing.
          size = line === 0 || (line === 1 && last === 13) ? 0 : size + line + 1;
          line = 0;
        }
        if (chunk.byteLength > from) (line += chunk.byteLength - from), (last = chunk[chunk.byteLength - 1]!);
      }
      if (size + line > max) {
        controller.error(tooLarge());
        return;
      }
      controller.enqueue(chunk);
    },
  });
}
