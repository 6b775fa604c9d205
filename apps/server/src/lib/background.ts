/**
 * Work that runs after its request has been answered: a charger called once a booking's transaction has
 * committed (ReserveNow, CancelReservation), whose answer is then recorded. A failure is logged, never thrown
 * at anyone; `settled` waits for what runs now (the tests' sync point, rather than a wait of some time).
 */
export class Background {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: (message: string) => void) {}

  run(what: string, task: () => Promise<unknown>): void {
    const running: Promise<void> = task()
      .then(
        () => undefined,
        (error: unknown) => this.log(`${what} failed: ${String(error)}`),
      )
      .finally(() => this.running.delete(running));
    this.running.add(running);
  }

  /** Resolves once the work running now, and any it started meanwhile, has ended. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
