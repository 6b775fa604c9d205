/**
 * Which OCPP version a charger is spoken to in (issue 33): one endpoint, two subprotocols. The charger lists
 * what it speaks in Sec-WebSocket-Protocol; its setting (the charger form's Protocol) says what we accept.
 */
import { OCPP_SUBPROTOCOLS, type OcppSubprotocol } from './protocol.ts';

/** The charger form's Protocol: Automatic, or one version only (chargers.ocpp_protocol). */
export type ProtocolSetting = 'auto' | '1.6' | '2.0.1';

const SUBPROTOCOL_OF: Record<Exclude<ProtocolSetting, 'auto'>, OcppSubprotocol> = {
  '1.6': 'ocpp1.6',
  '2.0.1': 'ocpp2.0.1',
};

/**
 * The subprotocol to accept, or why none can be: 'auto' takes the newest both sides speak; a version setting
 * takes only that one. A refusal is an HTTP 400 with the message (a clear answer, not a dropped socket).
 */
export function chooseSubprotocol(
  setting: string,
  offered: ReadonlySet<string>,
): { protocol: OcppSubprotocol } | { message: string } {
  const only = SUBPROTOCOL_OF[setting as keyof typeof SUBPROTOCOL_OF];
  if (only) {
    return offered.has(only)
      ? { protocol: only }
      : { message: `This charger is set to OCPP ${setting}: offer the subprotocol ${only}` };
  }
  const protocol = OCPP_SUBPROTOCOLS.find((candidate) => offered.has(candidate));
  return protocol ? { protocol } : { message: `Subprotocol ${OCPP_SUBPROTOCOLS.join(' or ')} required` };
}
