/** A one-line spinner for a TTY; does nothing anywhere else. */
import type { OutStream } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const CLEAR_LINE = '\r\x1b[2K';

export class Spinner {
  private timer: ReturnType<typeof setInterval> | undefined;
  private frame = 0;
  private label = '';
  private started = 0;

  constructor(
    private readonly out: OutStream,
    private readonly enabled: boolean,
    private readonly style: (s: string) => string = (s) => s,
  ) {}

  get active(): boolean {
    return this.timer !== undefined;
  }

  /** Shows `label` with a turning wheel and the seconds elapsed. The caller ensures the cursor is at a line start. */
  start(label: string): void {
    if (!this.enabled) return;
    this.label = label;
    if (this.timer) return;
    this.started = performance.now();
    this.draw();
    this.timer = setInterval(() => this.draw(), 80);
    // A forgotten spinner must not keep the process alive.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Removes the spinner's line; the cursor stays at its start. */
  stop(): void {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.out.write(CLEAR_LINE);
  }

  private draw(): void {
    const seconds = (performance.now() - this.started) / 1000;
    const elapsed = seconds >= 1 ? ` ${seconds.toFixed(0)}s` : '';
    this.out.write(`${CLEAR_LINE}${this.style(`${FRAMES[this.frame++ % FRAMES.length]} ${this.label}${elapsed}`)}`);
  }
}
