import { defineConfig } from 'tsup';

// One ESM build that Node, Deno and Bun import unchanged. Dependencies stay
// external (resolved from node_modules by each runtime).
export default defineConfig({
  entry: { index: 'host/index.ts' },
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: false,
  outDir: 'dist',
});
