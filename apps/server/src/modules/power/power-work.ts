/**
 * The power manager's background work: each piece runs on a later turn of the event loop (after the charger's
 * call or the API write that caused it has been answered), its failure is logged, never thrown at anyone, and
 * `settled` awaits what runs (the tests' sync point; a stopping server's last wait).
 */
import type { FastifyBaseLogger } from 'fastify';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class PowerWork {
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly log: FastifyBaseLogger) {}

  get stopping(): boolean {
    return this.stopped;
  }

  run(what: string, task: () => Promise<void>): void {
    if (this.stopped) return;
    const running: Promise<void> = nextTurn()
      .then(task)
      .catch((error: unknown) => this.log.error({ err: error }, `power: ${what} failed`))
      .finally(() => this.running.delete(running));
    this.running.add(running);
  }

  /**
   * Resolves once the work running now, and any it started meanwhile, has ended; or after `withinMs` (a
   * stopping server does not wait a command's whole timeout for a charger held elsewhere).
   */
  async settled(withinMs = Number.POSITIVE_INFINITY): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (this.running.size > 0 && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        if (Number.isFinite(withinMs)) timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
      });
      await Promise.race([Promise.all([...this.running]), late]);
      clearTimeout(timer);
    }
  }

  /** No new work from now on (the server is stopping). */
  stop(): void {
    this.stopped = true;
  }
}
