// A source that is a first-party name alone is read without building the schema
// (host/plugins/source.ts, nameOnly): it must read every input as the schema does.
import { describe, expect, it, vi } from 'vitest';
import { parseSource, pluginSourceSchema, type PluginSource } from '../../host/plugins/source.js';

const outcome = (read: () => unknown) => {
  try {
    return { ok: true, value: read() };
  } catch {
    return { ok: false };
  }
};

describe('a plugin source by name alone', () => {
  it('is read as the schema reads it, and refused where the schema refuses it', () => {
    const inherited = Object.create({ name: 'guard-shell' }) as object;
    const nullProto = Object.assign(Object.create(null) as object, { name: 'guard-shell' });
    const hiddenExtra = Object.defineProperty({ name: 'guard-shell' }, 'path', { value: 'x.wasm', enumerable: false });
    const hiddenName = Object.defineProperty({ path: 'x.wasm' }, 'name', { value: 'guard-shell', enumerable: false });
    for (const input of [
      { name: 'guard-shell' },
      { name: 'path-guard' },
      { name: 'Guard' },
      { name: '' },
      { name: 'a'.repeat(65) },
      { name: 'guard-shell\n' },
      { name: 7 },
      { name: 'guard-shell', sha256: 'A'.repeat(64) },
      { name: 'guard-shell', extra: 1 },
      { name: 'guard-shell', path: 'x.wasm' },
      inherited,
      nullProto,
      hiddenExtra,
      hiddenName,
      new (class Source {
        name = 'guard-shell';
      })(),
      ['guard-shell'],
      'guard-shell',
      null,
    ]) {
      const schema = pluginSourceSchema().safeParse(input);
      const ours = outcome(() => parseSource(input as PluginSource));
      expect(ours, String(JSON.stringify(input))).toStrictEqual(schema.success ? { ok: true, value: schema.data } : { ok: false });
    }
  });

  it('does not go through the schema', () => {
    const parse = vi.spyOn(pluginSourceSchema(), 'safeParse');
    try {
      expect(parseSource({ name: 'guard-shell' })).toStrictEqual({ name: 'guard-shell' });
      expect(parse).not.toHaveBeenCalled();
      parseSource({ path: 'x.wasm' });
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});
