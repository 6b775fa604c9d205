/**
 * Writes that trail what they record: the first change of a burst schedules one write `ms` later, and
 * writes run one after another, never two at once (store.ts, message-log.ts).
 */
export class WriteBehind {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly ms: number,
    private readonly write: () => Promise<void>,
  ) {}

  /** A change to write: the write runs `ms` after the first change not yet written. */
  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.ms);
  }

  /** Writes now (after any write already running). */
  flush(): Promise<void> {
    this.running = this.running.then(() => this.write());
    return this.running;
  }

  /** No write is scheduled any more (a flush still writes). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
