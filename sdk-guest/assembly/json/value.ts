// A parsed JSON document as a small tree, with lookups that never trap:
// a missing key or a value of the wrong kind gives the fallback.

import { JsonWriter, jsonString } from "./writer";

export enum JsonKind {
  Null,
  Bool,
  Number,
  String,
  Array,
  Object,
}

/** One JSON value. Objects keep their keys in document order. */
export class JsonValue {
  kind: JsonKind = JsonKind.Null;
  boolValue: bool = false;
  numberValue: f64 = 0;
  stringValue: string = "";
  // Made on first use: most values are scalars, and two arrays each were most of a small input's parse.
  private itemList: JsonValue[] | null = null;
  private keyList: string[] | null = null;

  /** Array elements, or object values (parallel to `keys`). */
  get items(): JsonValue[] {
    let list = this.itemList;
    if (list === null) {
      list = [];
      this.itemList = list;
    }
    return list;
  }

  /** Object member names, in document order. */
  get keys(): string[] {
    let list = this.keyList;
    if (list === null) {
      list = [];
      this.keyList = list;
    }
    return list;
  }

  get isNull(): bool { return this.kind == JsonKind.Null; }
  get isBool(): bool { return this.kind == JsonKind.Bool; }
  get isNumber(): bool { return this.kind == JsonKind.Number; }
  get isString(): bool { return this.kind == JsonKind.String; }
  get isArray(): bool { return this.kind == JsonKind.Array; }
  get isObject(): bool { return this.kind == JsonKind.Object; }

  /** Number of array elements or object members. */
  get length(): i32 {
    const list = this.itemList;
    return list === null ? 0 : list.length;
  }

  /** The member `key` of an object (the last one if repeated), or null. */
  get(key: string): JsonValue | null {
    const keys = this.keyList;
    if (this.kind != JsonKind.Object || keys === null) return null;
    for (let i = keys.length - 1; i >= 0; i--) {
      if (keys[i] == key) return this.items[i];
    }
    return null;
  }

  has(key: string): bool {
    return this.get(key) !== null;
  }

  /** The array element at `index`, or null. */
  at(index: i32): JsonValue | null {
    if (this.kind != JsonKind.Array || index < 0 || index >= this.length) return null;
    return this.items[index];
  }

  /** `input.getString("command")`: the string member, or `fallback` if missing or not a string. */
  getString(key: string, fallback: string = ""): string {
    const v = this.get(key);
    return v !== null && v.kind == JsonKind.String ? v.stringValue : fallback;
  }

  getNumber(key: string, fallback: f64 = 0): f64 {
    const v = this.get(key);
    return v !== null && v.kind == JsonKind.Number ? v.numberValue : fallback;
  }

  getBool(key: string, fallback: bool = false): bool {
    const v = this.get(key);
    return v !== null && v.kind == JsonKind.Bool ? v.boolValue : fallback;
  }

  /** The object member `key`, or null if missing or not an object. */
  getObject(key: string): JsonValue | null {
    const v = this.get(key);
    return v !== null && v.kind == JsonKind.Object ? v : null;
  }

  /** The elements of the array member `key`; empty if missing or not an array. */
  getArray(key: string): JsonValue[] {
    const v = this.get(key);
    return v !== null && v.kind == JsonKind.Array ? v.items : [];
  }

  /** Serialises this value back to compact JSON. */
  toJson(): string {
    // A lone string (a tool's text output) is written once, not copied again by the writer's join.
    if (this.kind == JsonKind.String) return jsonString(this.stringValue);
    const w = new JsonWriter();
    this.writeTo(w);
    return w.toString();
  }

  writeTo(w: JsonWriter): void {
    switch (this.kind) {
      case JsonKind.Null: w.nullValue(); break;
      case JsonKind.Bool: w.bool(this.boolValue); break;
      case JsonKind.Number: w.number(this.numberValue); break;
      case JsonKind.String: w.string(this.stringValue); break;
      case JsonKind.Array: {
        w.beginArray();
        for (let i = 0; i < this.items.length; i++) this.items[i].writeTo(w);
        w.endArray();
        break;
      }
      case JsonKind.Object: {
        w.beginObject();
        for (let i = 0; i < this.items.length; i++) {
          w.key(this.keys[i]);
          this.items[i].writeTo(w);
        }
        w.endObject();
        break;
      }
    }
  }

  static string(s: string): JsonValue {
    const v = new JsonValue();
    v.kind = JsonKind.String;
    v.stringValue = s;
    return v;
  }

  static emptyObject(): JsonValue {
    const v = new JsonValue();
    v.kind = JsonKind.Object;
    return v;
  }
}
