/**
 * What a caller hands the engine (engine.ts): the options it is built with,
 * and what it does with each call's outcome. The in-thread backend and the
 * worker (which builds its engine from options sent across) both speak these.
 */
import type { GuestImportOptions } from './guest-imports.js';
import type { CallOutcome, Limits } from './types.js';

export interface EngineOptions extends GuestImportOptions {
  limits: Readonly<Limits>;
  config?: Record<string, string>;
  onLog?: (level: string, message: string) => void;
  onProgress?: (message: string) => void;
}

/**
 * What a caller does with a call's outcome once the engine has it (see `Engine.run`): the call's
 * promise resolves to what it returns. Contract: must not throw.
 */
export type Settle<T = CallOutcome> = (outcome: CallOutcome) => T;
