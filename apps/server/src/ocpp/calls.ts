import { createHash } from 'node:crypto';

/** How many of a connection's latest calls are remembered to recognise a retransmission. */
export const RECENT_CALLS = 32;

type Result = Record<string, unknown>;

/**
 * A charger that got no answer in time sends the same CALL again with the same message id. Such a
 * retransmission (same id, same action, same payload, on the same connection) is answered with the first
 * call's answer and not processed again, so a MeterValues or a StopTransaction is never stored twice. A
 * reused id with another action or payload is a new call. Heartbeats are not remembered (they change nothing
 * and are most of the traffic). A call that failed is forgotten, so its retransmission is processed anew.
 */
export class RecentCalls {
  private readonly calls = new Map<string, { fingerprint: string; answer: Promise<Result> }>();

  constructor(private readonly capacity = RECENT_CALLS) {}

  answer(messageId: string, method: string, params: unknown, run: () => Promise<Result>): Promise<Result> {
    if (method === 'Heartbeat') return run();
    const fingerprint = createHash('sha1')
      .update(method)
      .update('\u0000')
      .update(JSON.stringify(params) ?? '')
      .digest('base64');
    const known = this.calls.get(messageId);
    if (known?.fingerprint === fingerprint) return known.answer;
    const answer = run();
    this.calls.delete(messageId);
    this.calls.set(messageId, { fingerprint, answer });
    answer.catch(() => {
      if (this.calls.get(messageId)?.answer === answer) this.calls.delete(messageId);
    });
    if (this.calls.size > this.capacity) {
      const oldest = this.calls.keys().next().value;
      if (oldest !== undefined) this.calls.delete(oldest);
    }
    return answer;
  }
}
