// Writing JSON by hand: an escaper for strings and a small streaming builder.

import { jsonString } from "./strings";

export { jsonString };

/**
 * Builds one JSON document; commas are placed for you.
 * Example: `new JsonWriter().beginObject().key("command").string("ls").endObject().toString()`.
 */
export class JsonWriter {
  private parts: string[] = [];
  // One flag per open container: has it received a value yet?
  private filled: bool[] = [];
  private afterKey: bool = false;

  private comma(): void {
    if (this.afterKey) {
      this.afterKey = false;
      return;
    }
    const depth = this.filled.length;
    if (depth == 0) return;
    if (this.filled[depth - 1]) this.parts.push(",");
    this.filled[depth - 1] = true;
  }

  beginObject(): JsonWriter {
    this.comma();
    this.parts.push("{");
    this.filled.push(false);
    return this;
  }

  endObject(): JsonWriter {
    this.filled.pop();
    this.parts.push("}");
    return this;
  }

  beginArray(): JsonWriter {
    this.comma();
    this.parts.push("[");
    this.filled.push(false);
    return this;
  }

  endArray(): JsonWriter {
    this.filled.pop();
    this.parts.push("]");
    return this;
  }

  key(name: string): JsonWriter {
    this.comma();
    this.parts.push(jsonString(name) + ":");
    this.afterKey = true;
    return this;
  }

  string(v: string): JsonWriter {
    this.comma();
    this.parts.push(jsonString(v));
    return this;
  }

  number(v: f64): JsonWriter {
    this.comma();
    // Integral values print without the ".0" AssemblyScript would add.
    if (Math.floor(v) == v && Math.abs(v) < 9007199254740992.0) this.parts.push((<i64>v).toString());
    else this.parts.push(isFinite(v) ? v.toString() : "null");
    return this;
  }

  bool(v: bool): JsonWriter {
    this.comma();
    this.parts.push(v ? "true" : "false");
    return this;
  }

  nullValue(): JsonWriter {
    this.comma();
    this.parts.push("null");
    return this;
  }

  /** Inserts an already-serialised JSON value as is. */
  raw(json: string): JsonWriter {
    this.comma();
    this.parts.push(json);
    return this;
  }

  toString(): string {
    return this.parts.join("");
  }
}
