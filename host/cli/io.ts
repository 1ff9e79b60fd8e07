/**
 * What a command reads and writes, passed in rather than taken from globals,
 * so commands can be driven in-process as well as from a real terminal.
 */
import process from 'node:process';

export interface OutStream {
  write(text: string): void;
  /** True when a person is watching (spinners, cursor movement). */
  readonly isTTY: boolean;
}

export interface CliIO {
  stdout: OutStream;
  stderr: OutStream;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

export function processIO(): CliIO {
  const wrap = (s: NodeJS.WriteStream): OutStream => ({
    write: (text) => void s.write(text),
    get isTTY() {
      return s.isTTY === true;
    },
  });
  return { stdout: wrap(process.stdout), stderr: wrap(process.stderr), env: process.env, cwd: process.cwd() };
}

/** Colour per https://no-color.org: NO_COLOR (any value) turns it off, FORCE_COLOR on; else only on a TTY. */
export function useColor(stream: OutStream, env: CliIO['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY && env.TERM !== 'dumb';
}

export interface Palette {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const sgr = (open: number, close: number) => (s: string) => `\x1b[${open}m${s}\x1b[${close}m`;
const plain = (s: string) => s;

export function palette(color: boolean): Palette {
  if (!color) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    magenta: sgr(35, 39),
  };
}

/** Resolves at the first SIGINT or SIGTERM (or when `also` calls the stop it is given), then stops listening. */
export function untilStopped(also?: (stop: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    also?.(stop);
  });
}
