// loadPlugin without options takes the schema's defaults without parsing (host/plugins/options.ts):
// they must be exactly what parsing gives, and each load must get its own objects.
import { describe, expect, it } from 'vitest';
import { parsePluginOptions } from '../../host/plugins/options.js';

describe('plugin options without options', () => {
  it('are what the schema gives for {}', () => {
    const parsed = parsePluginOptions('p', {});
    expect(parsePluginOptions('p', undefined)).toStrictEqual(parsed);
    expect(parsePluginOptions('p', null)).toStrictEqual(parsed);
  });

  it('are fresh objects for every load', () => {
    const a = parsePluginOptions('p', undefined);
    const b = parsePluginOptions('p', undefined);
    expect(a).not.toBe(b);
    expect(a.grants).not.toBe(b.grants);
    expect(a.limits).not.toBe(b.limits);
  });

  it('still refuses what the schema refuses', () => {
    expect(() => parsePluginOptions('p', { isolation: 'elsewhere' })).toThrow(/invalid options for plugin p/);
    expect(() => parsePluginOptions('p', 'fast')).toThrow(/invalid options for plugin p/);
  });
});
