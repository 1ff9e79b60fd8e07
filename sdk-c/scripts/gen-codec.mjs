#!/usr/bin/env node
// Generates the C SDK's protobuf codec for proto/wasmhooks/v1/hooks.proto:
// one struct per message with size/write/decode/json functions, one enum per
// proto enum, into sdk-c/wasmhooks/hooks.pb.h (header-only, freestanding).
// Usage: node sdk-c/scripts/gen-codec.mjs [--check]
// --check exits 1 when the committed file differs from what would be generated.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';

const PROTO = fileURLToPath(new URL('../../proto/wasmhooks/v1/hooks.proto', import.meta.url));
const OUT = fileURLToPath(new URL('../wasmhooks/hooks.pb.h', import.meta.url));

const root = new protobuf.Root().loadSync(PROTO, { alternateCommentMode: true, keepCase: true });
const pkg = root.lookup('wasmhooks.v1');
const enums = pkg.nestedArray.filter((n) => n instanceof protobuf.Enum);
const messages = pkg.nestedArray.filter((n) => n instanceof protobuf.Type);

const snake = (s) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const ctype = (m) => `wh_${snake(m.name)}`;

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
  if (!['string', 'uint32', 'bool'].includes(field.type)) throw new Error(`unsupported field type ${field.type} in ${field.fullName}`);
  return field.type;
}

function genEnum(e) {
  const members = Object.entries(e.values).map(([name, value]) => `${doc(e.comments[name], '  ')}  WH_${name} = ${value},`);
  const cases = Object.entries(e.values).map(([name, value]) => `    case ${value}: return "${name}";`);
  return `${doc(e.comment, '')}typedef enum {
${members.join('\n')}
} wh_${snake(e.name)};

/** The proto name of a ${e.name} value (as in proto3 JSON), or NULL for a value this SDK does not know. */
static inline const char *wh_${snake(e.name)}_name(int32_t value) {
  switch (value) {
${cases.join('\n')}
    default: return 0;
  }
}
`;
}

function genStruct(m) {
  const lines = [];
  for (const o of m.oneofsArray) lines.push(`  /** Which member of the \`${o.name}\` oneof is set: its field number, or 0. */\n  uint32_t ${o.name}_case;`);
  for (const f of m.fieldsArray.slice().sort((a, b) => a.id - b.id)) {
    const kind = kindOf(f);
    const c = doc(f.comment, '  ');
    if (f.repeated) {
      const elem = kind === 'message' ? `struct ${ctype(f.resolvedType)}` : 'wh_str';
      lines.push(`${c}  ${elem} *${f.name};\n  uint32_t ${f.name}_count;`);
    } else if (kind === 'message') {
      lines.push(`${c}  struct ${ctype(f.resolvedType)} *${f.name};${f.partOf ? ` /* oneof ${f.partOf.name}: set when ${f.partOf.name}_case == ${f.id} */` : ''}`);
    } else {
      const t = { enum: 'int32_t', string: 'wh_str', uint32: 'uint32_t', bool: 'bool' }[kind];
      lines.push(`${c}  ${t} ${f.name};`);
    }
  }
  return `${doc(m.comment, '')}typedef struct ${ctype(m)} {
${lines.join('\n') || '  char unused;'}
} ${ctype(m)};
`;
}

function genFunctions(m) {
  const T = ctype(m);
  const fields = m.fieldsArray.slice().sort((a, b) => a.id - b.id);
  const size = [];
  const write = [];
  const decode = [];
  const json = [];
  for (const f of fields) {
    const kind = kindOf(f);
    const n = f.name;
    const key = camel(n);
    if (f.repeated && kind === 'message') {
      const E = ctype(f.resolvedType);
      size.push(`  for (uint32_t i = 0; i < m->${n}_count; i++) { uint32_t s = ${E}_size(&m->${n}[i]); n += wh__tag_size(${f.id}) + wh__varint_size(s) + s; }`);
      write.push(`  for (uint32_t i = 0; i < m->${n}_count; i++) { p = wh__put_tag(p, ${f.id}, WH_WIRE_LEN); p = wh__put_varint(p, ${E}_size(&m->${n}[i])); p = ${E}_write(&m->${n}[i], p); }`);
      decode.push(`      case ${f.id}: {
        wh_reader sub;
        if (wt != WH_WIRE_LEN) { if (!wh__skip(r, wt)) return false; break; }
        if (!wh__sub(r, &sub)) return false;
        ${E} *item = (${E} *)wh__push((void **)&m->${n}, &m->${n}_count, sizeof(${E}));
        if (!${E}_decode(&sub, item)) return false;
        break;
      }`);
      json.push(`  if (m->${n}_count) { wh__json_key(out, &first, "${key}"); wh_buf_byte(out, '['); for (uint32_t i = 0; i < m->${n}_count; i++) { if (i) wh_buf_byte(out, ','); ${E}_json(&m->${n}[i], out); } wh_buf_byte(out, ']'); }`);
    } else if (f.repeated) {
      size.push(`  for (uint32_t i = 0; i < m->${n}_count; i++) n += wh__tag_size(${f.id}) + wh__varint_size(m->${n}[i].len) + m->${n}[i].len;`);
      write.push(`  for (uint32_t i = 0; i < m->${n}_count; i++) p = wh__put_str(p, ${f.id}, m->${n}[i]);`);
      decode.push(`      case ${f.id}: {
        wh_str s;
        if (wt != WH_WIRE_LEN) { if (!wh__skip(r, wt)) return false; break; }
        if (!wh__read_str(r, &s)) return false;
        *(wh_str *)wh__push((void **)&m->${n}, &m->${n}_count, sizeof(wh_str)) = s;
        break;
      }`);
      json.push(`  if (m->${n}_count) { wh__json_key(out, &first, "${key}"); wh_buf_byte(out, '['); for (uint32_t i = 0; i < m->${n}_count; i++) { if (i) wh_buf_byte(out, ','); wh_json_write_string(out, m->${n}[i]); } wh_buf_byte(out, ']'); }`);
    } else if (kind === 'message') {
      const E = ctype(f.resolvedType);
      const present = f.partOf ? `m->${f.partOf.name}_case == ${f.id} && m->${n}` : `m->${n}`;
      size.push(`  if (${present}) { uint32_t s = ${E}_size(m->${n}); n += wh__tag_size(${f.id}) + wh__varint_size(s) + s; }`);
      write.push(`  if (${present}) { p = wh__put_tag(p, ${f.id}, WH_WIRE_LEN); p = wh__put_varint(p, ${E}_size(m->${n})); p = ${E}_write(m->${n}, p); }`);
      // A field seen again merges into the earlier value, as protobuf runtimes do for messages; a oneof
      // member merges only while it is the set one (another member in between started it afresh).
      decode.push(`      case ${f.id}: {
        wh_reader sub;
        if (wt != WH_WIRE_LEN) { if (!wh__skip(r, wt)) return false; break; }
        if (!wh__sub(r, &sub)) return false;
        if (!m->${n}${f.partOf ? ` || m->${f.partOf.name}_case != ${f.id}` : ''}) m->${n} = (${E} *)wh_alloc_zeroed(sizeof(${E}));
        if (!${E}_decode(&sub, m->${n})) return false;${f.partOf ? `\n        m->${f.partOf.name}_case = ${f.id};` : ''}
        break;
      }`);
      json.push(`  if (${present}) { wh__json_key(out, &first, "${key}"); ${E}_json(m->${n}, out); }`);
    } else if (kind === 'enum') {
      size.push(`  if (m->${n}) n += wh__tag_size(${f.id}) + wh__varint_size((uint64_t)(int64_t)m->${n});`);
      write.push(`  if (m->${n}) { p = wh__put_tag(p, ${f.id}, WH_WIRE_VARINT); p = wh__put_varint(p, (uint64_t)(int64_t)m->${n}); }`);
      decode.push(`      case ${f.id}: { uint64_t v; if (wt != WH_WIRE_VARINT) { if (!wh__skip(r, wt)) return false; break; }
        if (!wh__read_varint(r, &v)) return false; m->${n} = (int32_t)(uint32_t)v; break; }`);
      const nameFn = `wh_${snake(f.resolvedType.name)}_name`;
      json.push(`  if (m->${n}) { const char *label = ${nameFn}(m->${n}); wh__json_key(out, &first, "${key}"); if (label) { wh_buf_byte(out, '"'); wh_buf_cstr(out, label); wh_buf_byte(out, '"'); } else wh_buf_int(out, m->${n}); }`);
    } else if (kind === 'uint32') {
      size.push(`  if (m->${n}) n += wh__tag_size(${f.id}) + wh__varint_size(m->${n});`);
      write.push(`  if (m->${n}) { p = wh__put_tag(p, ${f.id}, WH_WIRE_VARINT); p = wh__put_varint(p, m->${n}); }`);
      decode.push(`      case ${f.id}: { uint64_t v; if (wt != WH_WIRE_VARINT) { if (!wh__skip(r, wt)) return false; break; }
        if (!wh__read_varint(r, &v)) return false; m->${n} = (uint32_t)v; break; }`);
      json.push(`  if (m->${n}) { wh__json_key(out, &first, "${key}"); wh_buf_int(out, m->${n}); }`);
    } else if (kind === 'bool') {
      size.push(`  if (m->${n}) n += wh__tag_size(${f.id}) + 1;`);
      write.push(`  if (m->${n}) { p = wh__put_tag(p, ${f.id}, WH_WIRE_VARINT); *p++ = 1; }`);
      decode.push(`      case ${f.id}: { uint64_t v; if (wt != WH_WIRE_VARINT) { if (!wh__skip(r, wt)) return false; break; }
        if (!wh__read_varint(r, &v)) return false; m->${n} = v != 0; break; }`);
      json.push(`  if (m->${n}) { wh__json_key(out, &first, "${key}"); wh_buf_cstr(out, "true"); }`);
    } else {
      size.push(`  if (m->${n}.len) n += wh__tag_size(${f.id}) + wh__varint_size(m->${n}.len) + m->${n}.len;`);
      write.push(`  if (m->${n}.len) p = wh__put_str(p, ${f.id}, m->${n});`);
      decode.push(`      case ${f.id}: if (wt != WH_WIRE_LEN) { if (!wh__skip(r, wt)) return false; break; }
        if (!wh__read_str(r, &m->${n})) return false; break;`);
      json.push(`  if (m->${n}.len) { wh__json_key(out, &first, "${key}"); wh_json_write_string(out, m->${n}); }`);
    }
  }
  return `/** The size of ${m.name}'s canonical encoding. */
static inline uint32_t ${T}_size(const ${T} *m) {
  uint32_t n = 0;
  (void)m;
${size.join('\n')}
  return n;
}

/** Writes ${m.name}'s canonical encoding (fields in number order, proto3 defaults omitted) at p; returns the end. */
static inline uint8_t *${T}_write(const ${T} *m, uint8_t *p) {
  (void)m;
${write.join('\n')}
  return p;
}

/** Decodes ${m.name} from r into m (zero it first); false with r's error set on malformed input. Unknown fields are skipped. */
static inline bool ${T}_decode(wh_reader *r, ${T} *m) {
  while (r->pos < r->end) {
    uint64_t tag;
    if (!wh__read_varint(r, &tag)) return false;
    uint32_t wt = (uint32_t)(tag & 7);
    switch (tag >> 3) {
${decode.join('\n')}
      case 0: return wh__fail(r, "field number 0");
      default: if (!wh__skip(r, wt)) return false;
    }
  }
  return true;
}

/** Appends ${m.name} as proto3 JSON (camelCase names, enum names, defaults omitted). */
static inline void ${T}_json(const ${T} *m, wh_buf *out) {
  bool first = true;
  (void)m;
  wh_buf_byte(out, '{');
${json.join('\n')}
  wh_buf_byte(out, '}');
  (void)first;
}
`;
}

const out = `// GENERATED by sdk-c/scripts/gen-codec.mjs from proto/wasmhooks/v1/hooks.proto. Do not edit.
// Regenerate: node sdk-c/scripts/gen-codec.mjs
#ifndef WASMHOOKS_HOOKS_PB_H
#define WASMHOOKS_HOOKS_PB_H

#include "wire.h"

${enums.map(genEnum).join('\n')}
${messages.map((m) => `struct ${ctype(m)};`).join('\n')}

${messages.map(genStruct).join('\n')}
${messages.map((m) => { const T = ctype(m); return `static inline uint32_t ${T}_size(const ${T} *m);\nstatic inline uint8_t *${T}_write(const ${T} *m, uint8_t *p);\nstatic inline bool ${T}_decode(wh_reader *r, ${T} *m);\nstatic inline void ${T}_json(const ${T} *m, wh_buf *out);`; }).join('\n')}

${messages.map(genFunctions).join('\n')}
/** X(ProtoName, c_name) for every message: lets tests and tools dispatch on a type name. */
#define WH_FOR_EACH_MESSAGE(X) \\
${messages.map((m) => `  X(${m.name}, ${ctype(m)})`).join(' \\\n')}

#endif /* WASMHOOKS_HOOKS_PB_H */
`;

if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(OUT, 'utf8'); } catch { /* missing counts as stale */ }
  if (current !== out) {
    console.error(`${OUT} is stale: run node sdk-c/scripts/gen-codec.mjs`);
    process.exit(1);
  }
  console.log('C codec is up to date');
} else {
  writeFileSync(OUT, out);
  console.log(`wrote ${OUT}`);
}
