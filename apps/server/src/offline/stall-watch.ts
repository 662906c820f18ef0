/**
 * A watchdog for one attempt of a cloud download: when no byte arrives for a while (every peer went quiet, an origin
 * stopped sending without closing), it aborts the attempt, so the task is tried again or fails and no worker waits
 * forever.
 */
export class StallWatch {
  private readonly ctrl = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private last = -1;
  private since = Date.now();
  /** True once it gave up waiting. */
  stalled = false;

  constructor(
    private readonly outer: AbortSignal,
    private readonly ms: number,
  ) {
    if (outer.aborted) this.ctrl.abort();
    outer.addEventListener('abort', this.onOuter, { once: true });
    this.timer = setInterval(() => {
      if (Date.now() - this.since <= ms) return;
      this.stalled = true;
      this.ctrl.abort();
    }, Math.max(50, Math.min(1000, ms / 4)));
    this.timer.unref();
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
    return `No data arrived for ${span}; trying again.`;
  }

  stop(): void {
    clearInterval(this.timer);
    this.outer.removeEventListener('abort', this.onOuter);
  }
}
