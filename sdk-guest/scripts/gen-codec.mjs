#!/usr/bin/env node
// Generates the guest (AssemblyScript) codec for proto/wasmhooks/v1/hooks.proto:
// one class per message with encodeTo/decode/toJson, one enum per proto enum.
// Usage: node sdk-guest/scripts/gen-codec.mjs [--check]
// --check exits 1 when the committed file differs from what would be generated.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const PROTO = fileURLToPath(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url));
const OUT = fileURLToPath(new URL('../assembly/gen/hooks.ts', import.meta.url));

const root = new protobuf.Root().loadSync(PROTO, { alternateCommentMode: true });
const pkg = root.lookup('wasmhooks.v1');
const enums = pkg.nestedArray.filter((n) => n instanceof protobuf.Enum);
const messages = pkg.nestedArray.filter((n) => n instanceof protobuf.Type);

const SCALARS = {
  string: { ts: 'string', init: '""', wire: 'WIRE_LEN', read: 'r.string()', write: 'string' },
  uint32: { ts: 'u32', init: '0', wire: 'WIRE_VARINT', read: 'r.uint32()', write: 'uint32' },
  bool: { ts: 'bool', init: 'false', wire: 'WIRE_VARINT', read: 'r.bool()', write: 'bool' },
};

const enumPrefix = (e) => e.name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase() + '_';

function doc(comment, indent) {
  if (!comment) return '';
  const lines = comment.split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`).join('\n')}\n${indent} */\n`;
}

function kindOf(field) {
  field.resolve();
  if (field.resolvedType instanceof protobuf.Enum) return 'enum';
  if (field.resolvedType instanceof protobuf.Type) return 'message';
  if (!SCALARS[field.type]) throw new Error(`unsupported field type ${field.type} in ${field.fullName}`);
  return 'scalar';
}

function genEnum(e) {
  const prefix = enumPrefix(e);
  const members = Object.entries(e.values).map(([name, value]) => {
    const c = e.comments[name];
    return `${doc(c, '  ')}  ${name.slice(prefix.length)} = ${value},`;
  });
  const cases = Object.entries(e.values).map(([name, value]) => `    case ${value}: return "${name}";`);
  return `${doc(e.comment, '')}export enum ${e.name} {
${members.join('\n')}
}

/** The proto name of a ${e.name} value (as in proto3 JSON), or "" for a value this SDK does not know. */
export function ${e.name[0].toLowerCase() + e.name.slice(1)}Name(value: i32): string {
  switch (value) {
${cases.join('\n')}
    default: return "";
  }
}
`;
}

function genMessage(m) {
  const fields = m.fieldsArray.slice().sort((a, b) => a.id - b.id);
  const oneofs = m.oneofsArray;
  const decls = [];
  const encode = [];
  const decode = [];
  const json = [];
  const setters = [];
  for (const o of oneofs) {
    decls.push(`  /** Which member of the \`${o.name}\` oneof is set: its field number, or 0. */\n  ${o.name}Case: i32 = 0;`);
    setters.push(`  /** Unsets every member of the \`${o.name}\` oneof. */
  clear${o.name[0].toUpperCase() + o.name.slice(1)}(): void {
${o.fieldsArray.map((x) => `    this.${x.name} = null;`).join('\n')}
    this.${o.name}Case = 0;
  }`);
  }
  for (const f of fields) {
    const kind = kindOf(f);
    const name = f.name;
    const c = doc(f.comment, '  ');
    const inOneof = f.partOf ? f.partOf.name : null;
    if (f.repeated) {
      const elem = kind === 'message' ? f.resolvedType.name : SCALARS[f.type].ts;
      decls.push(`${c}  ${name}: ${elem}[] = [];`);
      if (kind === 'message') {
        encode.push(`    for (let i = 0; i < this.${name}.length; i++) w.message(${f.id}, this.${name}[i].encode());`);
        decode.push(`        case ${f.id}: if (r.expect(wt, WIRE_LEN, ${f.id})) m.${name}.push(${elem}.decode(r.sub())); break;`);
        json.push(`    if (this.${name}.length > 0) {\n      w.key("${name}").beginArray();\n      for (let i = 0; i < this.${name}.length; i++) this.${name}[i].toJson(w);\n      w.endArray();\n    }`);
      } else if (f.type === 'string') {
        encode.push(`    for (let i = 0; i < this.${name}.length; i++) w.stringAlways(${f.id}, this.${name}[i]);`);
        decode.push(`        case ${f.id}: if (r.expect(wt, WIRE_LEN, ${f.id})) m.${name}.push(r.string()); break;`);
        json.push(`    if (this.${name}.length > 0) {\n      w.key("${name}").beginArray();\n      for (let i = 0; i < this.${name}.length; i++) w.string(this.${name}[i]);\n      w.endArray();\n    }`);
      } else {
        throw new Error(`repeated ${f.type} is not supported (${f.fullName})`);
      }
    } else if (kind === 'message') {
      const T = f.resolvedType.name;
      decls.push(`${c}  ${name}: ${T} | null = null;`);
      const guard = inOneof ? `this.${inOneof}Case == ${f.id} && ` : '';
      encode.push(`    const ${name} = this.${name};\n    if (${guard}${name} !== null) w.message(${f.id}, ${name}.encode());`);
      // A field seen again merges into the earlier value (protobuf's rule for messages); a oneof
      // member merges only while it is the set one: another member in between started it afresh.
      const current = inOneof ? `m.${inOneof}Case == ${f.id} && ` : '';
      const fresh = inOneof ? `{ m.clear${inOneof[0].toUpperCase() + inOneof.slice(1)}(); m.${name} = ${T}.decode(sub); m.${inOneof}Case = ${f.id}; }` : `m.${name} = ${T}.decode(sub);`;
      decode.push(`        case ${f.id}: if (r.expect(wt, WIRE_LEN, ${f.id})) {
          const sub = r.sub();
          const ${name}Was = m.${name};
          if (${current}${name}Was !== null) ${name}Was.mergeFrom(sub);
          else ${fresh}
        } break;`);
      json.push(`    const ${name}Json = this.${name};\n    if (${guard}${name}Json !== null) {\n      w.key("${name}");\n      ${name}Json.toJson(w);\n    }`);
      if (inOneof) {
        const cap = (s) => s[0].toUpperCase() + s.slice(1);
        setters.push(`  /** Sets \`${name}\` as the \`${inOneof}\` member, clearing the others. */
  set${cap(name)}(value: ${T}): ${m.name} {
    this.clear${cap(inOneof)}();
    this.${name} = value;
    this.${inOneof}Case = ${f.id};
    return this;
  }`);
      }
    } else if (kind === 'enum') {
      const E = f.resolvedType.name;
      decls.push(`${c}  ${name}: ${E} = 0;`);
      encode.push(`    w.enumValue(${f.id}, this.${name});`);
      decode.push(`        case ${f.id}: if (r.expect(wt, WIRE_VARINT, ${f.id})) m.${name} = r.int32(); break;`);
      const fn = E[0].toLowerCase() + E.slice(1) + 'Name';
      json.push(`    if (this.${name} != 0) {\n      const ${name}Label = ${fn}(this.${name});\n      w.key("${name}");\n      if (${name}Label.length > 0) w.string(${name}Label);\n      else w.number(<f64>this.${name});\n    }`);
    } else {
      const s = SCALARS[f.type];
      decls.push(`${c}  ${name}: ${s.ts} = ${s.init};`);
      encode.push(`    w.${s.write}(${f.id}, this.${name});`);
      decode.push(`        case ${f.id}: if (r.expect(wt, ${s.wire}, ${f.id})) m.${name} = ${s.read}; break;`);
      const jsonWrite = f.type === 'string' ? `w.key("${name}").string(this.${name});` : f.type === 'bool' ? `w.key("${name}").bool(true);` : `w.key("${name}").number(<f64>this.${name});`;
      const cond = f.type === 'string' ? `this.${name}.length > 0` : f.type === 'bool' ? `this.${name}` : `this.${name} != 0`;
      json.push(`    if (${cond}) ${jsonWrite}`);
    }
  }
  return `${doc(m.comment, '')}export class ${m.name} {
${decls.join('\n')}
${setters.length ? '\n' + setters.join('\n\n') + '\n' : ''}
  /** The canonical encoding: fields in number order, proto3 defaults omitted. */
  encode(): Uint8Array {
    const w = new Writer();
${encode.join('\n') || '    // no fields'}
    return w.finish();
  }

  /** Decodes from \`r\`; on malformed input \`r.failed\` is set and the result is partial. Unknown fields are skipped. */
  static decode(r: Reader): ${m.name} {
    const m = new ${m.name}();
    m.mergeFrom(r);
    return m;
  }

  /** Reads fields from \`r\` into this message (a scalar seen again replaces the earlier value, a message merges). */
  mergeFrom(r: Reader): void {
    const m = this;
    while (!r.done) {
      const tag = r.uint32();
      const wt = tag & 7;
      switch (tag >>> 3) {
${decode.join('\n')}
        case 0: r.fail("field number 0"); break;
        default: r.skip(wt);
      }
    }
  }

  /** Writes proto3 JSON (camelCase names, enum names, defaults omitted). */
  toJson(w: JsonWriter): void {
    w.beginObject();
${json.join('\n')}
    w.endObject();
  }
}
`;
}

const out = `// GENERATED by sdk-guest/scripts/gen-codec.mjs from proto/wasmhooks/v1/hooks.proto. Do not edit.
// Regenerate: node sdk-guest/scripts/gen-codec.mjs
import { Reader, Writer, WIRE_LEN, WIRE_VARINT } from "../proto/wire";
import { JsonWriter } from "../json/writer";

${enums.map(genEnum).join('\n')}
${messages.map(genMessage).join('\n')}`;

if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(OUT, 'utf8'); } catch { /* missing counts as stale */ }
  if (current !== out) {
    console.error(`${OUT} is stale: run node sdk-guest/scripts/gen-codec.mjs`);
    process.exit(1);
  }
  console.log('guest codec is up to date');
} else {
  writeFileSync(OUT, out);
  console.log(`wrote ${OUT}`);
}
