import {
  type ChargeRequest,
  type GatewayResult,
  PaymentDeclined,
  type PaymentGateway,
  type RefundRequest,
} from '../../src/modules/payment/payment-gateway.ts';

/** How the test provider answers the next calls. */
export type ProviderMode =
  /** Yes, after `delayMs`. */
  | 'yes'
  /** A declined card: PaymentDeclined after `delayMs`. */
  | 'decline'
  /** Takes the money but answers only after `slowMs` (past the server's timeout). */
  | 'slow'
  /** Throws a network error after taking the money (the outcome is unknown to the caller). */
  | 'lost';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A payment provider for tests, as a real one behaves: each charge or refund is kept by its idempotency key,
 * and a second call with a key it knows answers the first call's outcome without moving money again. It
 * counts calls, money moved, and how many calls were in flight at once.
 */
export class TestProvider implements PaymentGateway {
  readonly name = 'test-provider';
  mode: ProviderMode = 'yes';
  delayMs = 0;
  slowMs = 3000;
  /**
   * Calls wait until this many are in flight together (or `holdMs` passed), then take `delayMs`: proves that
   * the server lets that many members be with the provider at once.
   */
  holdUntil: number | null = null;
  holdMs = 10_000;
  private waiting: Array<() => void> = [];
  calls = 0;
  inFlight = 0;
  maxInFlight = 0;
  /** Money taken (charges) and paid back (refunds), by key: what the provider's own books say. */
  readonly charged = new Map<string, { amount: number; reference: string }>();
  readonly refunded = new Map<string, { amount: number; reference: string }>();
  private readonly declined = new Set<string>();

  async charge(request: ChargeRequest): Promise<GatewayResult> {
    return this.run(request.idempotencyKey, request.amount, this.charged, 'ch');
  }

  async refund(request: RefundRequest): Promise<GatewayResult> {
    return this.run(request.idempotencyKey, request.amount, this.refunded, 're');
  }

  private hold(): Promise<void> {
    if (this.holdUntil === null) return Promise.resolve();
    if (this.inFlight >= this.holdUntil) {
      for (const release of this.waiting.splice(0)) release();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, this.holdMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async run(
    key: string,
    amount: number,
    book: Map<string, { amount: number; reference: string }>,
    prefix: string,
  ): Promise<GatewayResult> {
    this.calls++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await this.hold();
      await sleep(this.delayMs);
      const known = book.get(key);
      if (known) return { status: 'succeeded', reference: known.reference };
      if (this.declined.has(key)) throw new PaymentDeclined('card declined');
      switch (this.mode) {
        case 'decline':
          this.declined.add(key);
          throw new PaymentDeclined('card declined');
        case 'slow': {
          const reference = `${prefix}_${book.size + 1}_${key.slice(0, 8)}`;
          book.set(key, { amount, reference });
          await sleep(this.slowMs);
          return { status: 'succeeded', reference };
        }
        case 'lost':
          book.set(key, { amount, reference: `${prefix}_${book.size + 1}_${key.slice(0, 8)}` });
          throw new Error('socket hang up');
        default: {
          const reference = `${prefix}_${book.size + 1}_${key.slice(0, 8)}`;
          book.set(key, { amount, reference });
          return { status: 'succeeded', reference };
        }
      }
    } finally {
      this.inFlight--;
    }
  }
}
