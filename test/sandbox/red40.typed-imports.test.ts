// red40: what a module imports is read before it compiles (host/sandbox/imports.ts: host functions'
// signatures, grants, WASI's redirect, `wasmhooks inspect`), and a table's or a global's type there, and
// every value type of the type section, was read as one byte, but `(ref null $t)` (0x63) and `(ref $t)`
// (0x64) carry a heap type after it. On Deno and Bun, which have typed function references, a valid module
// importing a typed table or global was INVALID_WASM ("unknown import kind 111"), and one whose type
// section held a `(ref null $t)` lost the types after it: its host function `add: (i64, i64) -> i64` read
// as `() -> ()`, so the real one was refused as a mismatch and one given as `() -> ()` passed the check.
// Now the Reader's value-type skip reads them (one implementation, which denied.ts shares). On Node 20,
// whose engine lacks typed function references, such a module is INVALID_WASM saying so, where V8 said
// "invalid value type 'stringview_wtf8ref'". Fails on the old code: functionImports threw or misread,
// redirectWasi threw, and on Node 20 the refusal named stringref. Cross-runtime twin:
// test/xrt/red40-nnfill.xrt.ts.
import { describe, expect, it } from 'vitest';
import { DENIED_MODULE, rerouteDenied } from '../../host/sandbox/denied.js';
import { functionImports, redirectWasi, WASI_MODULE, WASI_REDIRECT } from '../../host/sandbox/imports.js';
import { createSandbox } from '../../host/sandbox/index.js';
import { instrument } from '../../host/sandbox/instrument/index.js';
import { nonNullFillModule } from '../fixtures/red40-nnfill.js';
import { EXTISM, IMPORT_CASES, typedImportProblems } from '../fixtures/red40-typed-imports.js';
import { typedRefsSupported } from '../fixtures/wasm-bytes.js';

describe('red40: typed function references where the host reads a module before compiling it', () => {
  it.each(IMPORT_CASES.map((c) => [c.name, c] as const))('functionImports reads %s (on every runtime: nothing compiles)', (_, c) => {
    expect(functionImports(c.bytes)).toEqual(c.functions);
  });

  it('redirectWasi and rerouteDenied rewrite the import section after typed table and global imports, nothing else', () => {
    const c = IMPORT_CASES.find((x) => x.functions.some((f) => f.module === WASI_MODULE))!;
    const moved = (from: string, to: string) => c.functions.map((f) => (f.module === from ? { ...f, module: to } : f));
    const redirected = redirectWasi(c.bytes);
    expect(functionImports(redirected)).toEqual(moved(WASI_MODULE, WASI_REDIRECT));
    const denied = rerouteDenied(c.bytes);
    expect(functionImports(denied)).toEqual(moved(EXTISM, DENIED_MODULE));
    if (typedRefsSupported()) expect([redirected, denied].map((b) => WebAssembly.validate(b as Uint8Array<ArrayBuffer>))).toEqual([true, true]);
  });

  it('through createSandbox: they load and run (a typed-refs engine), their host function\'s signature checked, or are INVALID_WASM saying the engine lacks typed function references (Node 20)', async () => {
    expect(await typedImportProblems({ createSandbox, instrument }, typedRefsSupported(), [nonNullFillModule(10)])).toEqual([]);
  }, 60_000);
});
