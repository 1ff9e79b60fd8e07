/**
 * The event bus: any number of subscribers, each with its own bounded queue.
 * `publish` never awaits a subscriber: it appends to each queue and
 * schedules a drain (a microtask). A synchronous burst larger than a queue
 * does not drop events for a subscriber that keeps up: when the queue is full
 * and the subscriber is not busy with a promise it returned, `publish` hands
 * it the queued events at once (it runs inside `publish` then). A queue that
 * is full because its subscriber is still awaiting (back-pressure) drops the
 * event for that subscriber alone and counts it; once there is room again the
 * subscriber first receives one `events.dropped` event with the count. A
 * throwing (or rejecting) subscriber is isolated: it affects neither the
 * others nor the publisher.
 */
import { safely } from '../errors.js';
import type { HostEvent, HostEventOf } from './types.js';

/** Contract: may be sync or async; a returned promise is awaited before the next event (that is the back-pressure that fills the queue). */
export type Subscriber = (event: HostEvent) => void | Promise<void>;

export interface SubscribeOptions {
  /** Queue capacity for this subscriber. Default 4096; `Infinity` never drops. */
  buffer?: number;
  /** Called with whatever a subscriber throws; default: ignored. */
  onError?: (error: unknown) => void;
}

export const DEFAULT_SUBSCRIBER_BUFFER = 4096;

class SubscriberQueue {
  private items: HostEvent[] = [];
  private head = 0;
  private dropped = 0;
  private lastDropped: HostEvent | undefined;
  /**
   * A drain is queued or running. Set only once `queueMicrotask` has returned, cleared in the
   * drain's `finally`: a throw anywhere (a RangeError from the scheduling itself, on a nearly
   * exhausted stack) can never leave it set with no drain to come, which froze this subscriber
   * for the rest of the session (red40).
   */
  private scheduled = false;
  /** A drain is running: a second one (queued by a publish that threw after queueing it) leaves it be. */
  private draining = false;
  /** A promise the subscriber returned and we have not seen settle: it is busy. */
  private pending: Promise<void> | undefined;
  /** Inside an inline delivery: a publish from the subscriber itself must not re-enter. */
  private delivering = false;
  closed = false;

  constructor(
    private readonly fn: Subscriber,
    private readonly capacity: number,
    private readonly onError: ((error: unknown) => void) | undefined,
  ) {}

  push(event: HostEvent): void {
    if (this.closed) return;
    if (this.items.length - this.head >= this.capacity && !this.pending && !this.delivering) this.deliverNow();
    if (this.items.length - this.head >= this.capacity) {
      this.dropped++;
      this.lastDropped = event;
      return;
    }
    if (this.dropped > 0) this.flushDropped();
    this.items.push(event);
    if (!this.scheduled) {
      queueMicrotask(this.startDrain);
      this.scheduled = true;
    }
  }

  /** A throw of the drain's own (not a subscriber's: those are caught where they are called) goes to `onError`, not unhandled. */
  private readonly startDrain = (): void => void this.drain().then(undefined, (error: unknown) => this.report(error));

  /** The notice goes in ahead of the next event, even if that exceeds capacity by one. */
  private flushDropped(): void {
    const last = this.lastDropped as HostEvent;
    const notice: HostEventOf<'events.dropped'> = {
      type: 'events.dropped',
      count: this.dropped,
      seq: last.seq,
      sessionId: last.sessionId,
      time: Date.now(),
    };
    // Counted as sent only once it is in the queue (a throw before keeps the count for the next one).
    this.items.push(notice);
    this.dropped = 0;
    this.lastDropped = undefined;
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        if (this.pending) {
          await this.pending;
          this.pending = undefined;
        }
        if (this.closed || this.head >= this.items.length) break;
        this.deliverOne();
        if (this.head >= this.items.length && this.dropped > 0) this.flushDropped();
      }
    } finally {
      this.draining = false;
      this.scheduled = false;
    }
  }

  /** Hands the subscriber the queued events now, until it returns a promise. */
  private deliverNow(): void {
    this.delivering = true;
    try {
      while (!this.closed && !this.pending && this.head < this.items.length) this.deliverOne();
    } finally {
      this.delivering = false;
    }
  }

  /** Delivers the next event; a returned promise makes the subscriber busy until it settles. */
  private deliverOne(): void {
    const event = this.items[this.head] as HostEvent;
    this.items[this.head++] = undefined as unknown as HostEvent;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    try {
      const r = this.fn(event);
      if (r && typeof (r as Promise<void>).then === 'function') this.pending = (r as Promise<void>).then(undefined, (error) => this.report(error));
    } catch (error) {
      this.report(error);
    }
  }

  private report(error: unknown): void {
    // An error handler that throws is as isolated as the subscriber.
    safely(() => this.onError?.(error));
  }
}

/**
 * @example
 * const bus = new EventBus();
 * const off = bus.subscribe((e) => console.log(e.type));
 * bus.publish(event); // returns at once
 * off();
 */
export class EventBus {
  private queues: SubscriberQueue[] = [];

  get subscriberCount(): number {
    return this.queues.length;
  }

  /** Returns the unsubscribe function. */
  subscribe(fn: Subscriber, options: SubscribeOptions = {}): () => void {
    const buffer = options.buffer ?? DEFAULT_SUBSCRIBER_BUFFER;
    if (!(buffer >= 1)) throw new RangeError(`subscribe: buffer must be >= 1, got ${buffer}`);
    const queue = new SubscriberQueue(fn, buffer, options.onError);
    this.queues = [...this.queues, queue];
    return () => {
      queue.closed = true;
      this.queues = this.queues.filter((q) => q !== queue);
    };
  }

  /** Never throws, never awaits. */
  publish(event: HostEvent): void {
    const queues = this.queues;
    for (let i = 0; i < queues.length; i++) (queues[i] as SubscriberQueue).push(event);
  }
}
