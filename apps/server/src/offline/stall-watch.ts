/**
 * A watchdog for one attempt of a cloud download: when no byte arrives for a while (every peer went quiet, an origin
 * stopped sending without closing), or bytes trickle in below a floor over that same span (an origin sending a byte
 * every few seconds holds a worker's slot as surely as a silent one), it aborts the attempt, so the task is tried
 * again or fails and no worker waits forever.
 */
export class StallWatch {
  private readonly ctrl = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private last = -1;
  private since = Date.now();
  /** Where the current span of the rate floor began: its time and the bytes then. */
  private spanStart = Date.now();
  private spanBytes = 0;
  /** True once it gave up waiting. */
  stalled = false;
  /** True when it gave up because the bytes came too slowly (rather than not at all). */
  slow = false;

  constructor(
    private readonly outer: AbortSignal,
    private readonly ms: number,
    /** The least bytes a second, averaged over each span of `ms`, that keeps the attempt going; 0 for none. */
    private readonly minBytesPerSecond = 0,
  ) {
    if (outer.aborted) this.ctrl.abort();
    outer.addEventListener('abort', this.onOuter, { once: true });
    this.timer = setInterval(() => this.check(), Math.max(50, Math.min(1000, ms / 4)));
    this.timer.unref();
  }

  private check(): void {
    const now = Date.now();
    if (now - this.since > this.ms) return this.giveUp(false);
    if (now - this.spanStart < this.ms) return;
    const received = Math.max(0, this.last);
    if (received - this.spanBytes < (this.minBytesPerSecond * (now - this.spanStart)) / 1000) return this.giveUp(true);
    this.spanStart = now;
    this.spanBytes = received;
  }

  private giveUp(slow: boolean): void {
    this.stalled = true;
    this.slow = slow;
    this.ctrl.abort();
  }

  private readonly onOuter = () => this.ctrl.abort();

  /** Aborted when the task is stopped or the transfer stalled. */
  get signal(): AbortSignal {
    return this.ctrl.signal;
  }

  /** The bytes received so far: any change counts as life. */
  saw(received: number): void {
    if (received === this.last) return;
    this.last = received;
    this.since = Date.now();
  }

  /** Why it gave up, for the task's message. */
  get reason(): string {
    const minutes = this.ms / 60_000;
    const span = minutes >= 1 ? `${Math.round(minutes)} minute${minutes >= 2 ? 's' : ''}` : `${Math.round(this.ms / 1000)} seconds`;
    if (this.slow) return `Data arrived at under ${formatRate(this.minBytesPerSecond)} for ${span}; trying again.`;
    return `No data arrived for ${span}; trying again.`;
  }

  stop(): void {
    clearInterval(this.timer);
    this.outer.removeEventListener('abort', this.onOuter);
  }
}

const formatRate = (bytesPerSecond: number) => (bytesPerSecond >= 1024 ? `${Math.round(bytesPerSecond / 1024)} KB/s` : `${bytesPerSecond} bytes/s`);
