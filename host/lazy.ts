/**
 * A value built at its first use, then kept. For zod schemas that a module
 * would otherwise build when it is imported: every schema built at import is
 * paid by `import 'wasmhooks'` (the cold start of issue 14, measured in
 * bench/rows/cold.ts), also by a program that never reaches the edge it
 * guards. Building one costs tens to hundreds of µs, first uses of zod more.
 */
export function lazy<T>(build: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: build() }).v;
}
