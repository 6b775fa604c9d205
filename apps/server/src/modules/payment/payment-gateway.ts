/**
 * The one way money moves through a payment provider. Routes and services call this interface only, so a real
 * gateway (Omise, 2C2P) plugs in later by implementing it, without touching them.
 */
export interface ChargeRequest {
  bookingId: number;
  invoiceNo: string;
  method: string;
  /** Satang. */
  amount: number;
}

export interface RefundRequest {
  paymentId: number;
  invoiceNo: string;
  creditNoteNo: string;
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

export interface PaymentGateway {
  /** Short name stored on each payment. */
  readonly name: string;
  charge(request: ChargeRequest): Promise<GatewayResult>;
  /** Throws when the provider refuses; the refund is then kept as failed for staff to settle by hand. */
  refund(request: RefundRequest): Promise<GatewayResult>;
}

/**
 * The default: no provider is connected, so payments and refunds are recorded for manual settlement (the
 * back-office shows a refund as 'Recorded: settle manually'). Documented in docs/operations.md.
 */
export class ManualSettlementGateway implements PaymentGateway {
  readonly name = 'manual';
  async charge(request: ChargeRequest): Promise<GatewayResult> {
    return { status: 'manual', reference: request.invoiceNo };
  }
  async refund(request: RefundRequest): Promise<GatewayResult> {
    return { status: 'manual', reference: request.creditNoteNo };
  }
}
