/**
 * Validating `SandboxOptions` at the edge: impossible values are refused with
 * a message naming the option, before anything is compiled.
 */
import { z } from 'zod';
import { WasmhooksError } from '../errors.js';
import { DEFAULT_QUARANTINE } from './health.js';
import { DEFAULT_LIMITS, type Limits, type QuarantinePolicy, type SandboxOptions } from './types.js';

const count = z.number().int().positive();
// Infinity allowed: no deadline / no fuel cap (zod's number() alone refuses it).
const budget = z.union([z.number().positive(), z.literal(Number.POSITIVE_INFINITY)]);

const schema = z.object({
  limits: z
    .object({
      timeoutMs: budget,
      fuel: budget,
      maxMemoryPages: count.max(65_536),
      maxInputBytes: count,
      maxOutputBytes: count,
      maxVarBytes: count,
    })
    .partial()
    .optional(),
  isolation: z.enum(['in-thread', 'worker']).optional(),
  config: z.record(z.string(), z.string()).optional(),
  allowedHosts: z.array(z.string()).max(0, 'network grants are not supported by the sandbox yet').optional(),
  allowedPaths: z
    .record(z.string(), z.string())
    .refine((paths) => Object.keys(paths).length === 0, 'file grants are not supported by the sandbox yet')
    .optional(),
  name: z.string().optional(),
  // Checked in full by prepareGuest (the object form reads directories).
  wasi: z.union([z.boolean(), z.object({}).passthrough()]).optional(),
  quarantine: z
    .object({ maxConsecutiveFailures: count, backoffMs: z.number().nonnegative(), maxBackoffMs: z.number().nonnegative() })
    .partial()
    .optional(),
});

export interface ResolvedOptions {
  limits: Readonly<Limits>;
  quarantine: Readonly<QuarantinePolicy>;
  isolation: 'in-thread' | 'worker';
  name: string;
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const parsed = schema.safeParse(options);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; ');
    throw new WasmhooksError('INVALID_OPTIONS', `invalid sandbox options: ${issues}`);
  }
  const o = parsed.data;
  return {
    limits: Object.freeze({ ...DEFAULT_LIMITS, ...o.limits }),
    quarantine: Object.freeze({ ...DEFAULT_QUARANTINE, ...o.quarantine }),
    isolation: o.isolation ?? 'in-thread',
    name: o.name ?? 'plugin',
  };
}
