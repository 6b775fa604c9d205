import { BadGateway, Conflict, GatewayTimeout } from '../lib/errors.ts';
import type { CommandOutcome } from './commands.ts';

/**
 * A remote start or stop that must be Accepted, as the HTTP answer of the call that asked for it: offline is a
 * 409 (`offlineMessage`, or one naming `what`), no answer a 504, a CALLERROR or anything but Accepted a 502.
 */
export function requireAccepted(outcome: CommandOutcome, what: string, offlineMessage?: string): void {
  if (outcome.status === 'offline')
    throw new Conflict(offlineMessage ?? `The charger is offline: the ${what} was not sent`);
  if (outcome.status === 'timeout') throw new GatewayTimeout(`The charger did not answer the ${what}`);
  if (outcome.status === 'error') throw new BadGateway(`The charger refused the ${what}: ${outcome.code}`);
  if (outcome.response.status !== 'Accepted') throw new BadGateway(`The charger rejected the ${what}`);
}
