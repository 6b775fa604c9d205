/**
 * The one way money moves through a payment provider. Routes and services call this interface only, so a real
 * gateway (Omise, 2C2P) plugs in later by implementing it, without touching them.
 *
 * Every call carries an idempotency key: the provider must treat a second call with the same key as the same
 * charge or refund (as Omise, 2C2P and Stripe do), answering the first call's outcome. That is how a call
 * whose answer was lost (a timeout, a crash) is settled: it is simply made again with its key.
 */
export interface ChargeRequest {
  idempotencyKey: string;
  bookingId: number;
  method: string;
  /** Satang. */
  amount: number;
}

export interface RefundRequest {
  idempotencyKey: string;
  paymentId: number;
  /** The invoice the refund credits. */
  invoiceNo: string;
  method: string;
  /** Satang. */
  amount: number;
  /** The gateway's reference of the original charge. */
  chargeReference: string | null;
}

export interface GatewayResult {
  /** manual: recorded here, to be settled by hand; succeeded: the provider confirmed it. */
  status: 'manual' | 'succeeded';
  reference: string;
}

/**
 * The provider said no, for good (a declined card, insufficient funds): nothing moved, and the same call would
 * be refused again. Any other error, or no answer, leaves the outcome unknown.
 */
export class PaymentDeclined extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentDeclined';
  }
}

export interface PaymentGateway {
  /** Short name stored on each payment. */
  readonly name: string;
  /** Resolves when the provider took the money; throws PaymentDeclined when it refused. */
  charge(request: ChargeRequest): Promise<GatewayResult>;
  /** Resolves when the provider paid it back; throws PaymentDeclined when it refused. */
  refund(request: RefundRequest): Promise<GatewayResult>;
}

/** What a provider call came to. */
export type ProviderOutcome =
  | { kind: 'done'; result: GatewayResult }
  | { kind: 'declined'; reason: string }
  /** No answer in time, or an error that says nothing of the money: asked again later by its key. */
  | { kind: 'unknown'; reason: string };

/**
 * Calls the provider, at most `timeoutMs`. Never throws: a decline and an unknown outcome are answers too.
 * Called with no database transaction open (ARCHITECTURE.md, Money and bookings).
 */
export async function callProvider(
  call: () => Promise<GatewayResult>,
  timeoutMs: number,
): Promise<ProviderOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProviderOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ kind: 'unknown', reason: `no answer within ${Math.round(timeoutMs / 1000)} s` }),
      timeoutMs,
    );
  });
  const answer = call().then(
    (result): ProviderOutcome => ({ kind: 'done', result }),
    (error: unknown): ProviderOutcome =>
      error instanceof PaymentDeclined
        ? { kind: 'declined', reason: error.message }
        : { kind: 'unknown', reason: error instanceof Error ? error.message : String(error) },
  );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The default: no provider is connected, so payments and refunds are recorded for manual settlement (the
 * back-office shows a refund as 'Recorded: settle manually'). Documented in docs/operations.md.
 */
export class ManualSettlementGateway implements PaymentGateway {
  readonly name = 'manual';
  async charge(request: ChargeRequest): Promise<GatewayResult> {
    return { status: 'manual', reference: request.idempotencyKey };
  }
  async refund(request: RefundRequest): Promise<GatewayResult> {
    return { status: 'manual', reference: request.idempotencyKey };
  }
}
