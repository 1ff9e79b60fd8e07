// The `abort` the build wires in (`--use abort=...`): a runtime failure in the
// guest (index out of range, a failed assert) becomes an Extism error with the
// message and source position, then traps so the call cannot continue.

import { Host, LogLevel, Memory } from "@extism/as-pdk";
import { error_set } from "@extism/as-pdk/lib/env";

export function wasmhooksAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  let text = "plugin aborted: " + (message !== null ? message : "(no message)");
  if (fileName !== null) text += " at " + fileName + ":" + line.toString() + ":" + column.toString();
  error_set(Memory.allocateString(text).offset);
  // A trap loses the error on some hosts (Extism JS reports only "unreachable"); the log keeps it.
  Host.log(LogLevel.Error, text);
  unreachable();
}
