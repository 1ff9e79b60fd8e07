// The two plugins the kernel tests compare (host/sandbox/extism-kernel.ts): raw Extism, and the same bytes
// with our memory accessors installed, driven directly as the sandbox's engine drives it.
import createPlugin from '@extism/extism';
import { directCaller, probeContext, type DirectCaller } from '../../host/sandbox/extism-call.js';

export type Plugin = Awaited<ReturnType<typeof createPlugin>>;

export interface KernelPair {
  /** Raw Extism: Extism's own accessors. */
  raw: Plugin;
  /** The same bytes with our accessors; `plugin.call` on it still reaches Extism's own (ours are idle outside a direct call). */
  probed: Plugin;
  /** A direct call of `probed`: our accessors answer. */
  direct: DirectCaller;
  close(): Promise<void>;
}

export async function kernelPair(bytes: Uint8Array): Promise<KernelPair> {
  const raw = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false });
  const functions = {};
  const context = probeContext(functions, 'wasmhooks:sandbox');
  const probed = await createPlugin({ wasm: [{ data: bytes }] }, { useWasi: false, functions });
  const direct = directCaller(context(), await probed.getInstance(), functions);
  if (!direct) throw new Error('this Extism build has no call context to drive directly');
  return { raw, probed, direct, close: async () => void (await Promise.all([raw.close(), probed.close()])) };
}
