import { type IncomingMessage, STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import { isChargerId } from '@ev/shared';

/** The path chargers connect to: /ocpp/{chargerId}. */
export const OCPP_PATH = '/ocpp';

/** ocpp-rpc's own subprotocol parser: what it accepts is exactly what the library will accept after us. */
const { parseSubprotocols } = createRequire(import.meta.url)('ocpp-rpc/lib/ws-util.js') as {
  parseSubprotocols: (header: string) => Set<string>;
};

export type UpgradeVerdict = { chargerId: string } | { status: number; message: string };

/**
 * Screens a WebSocket upgrade before ocpp-rpc sees it. The library decodes the identity with
 * decodeURIComponent outside its error handling (a malformed escape such as /ocpp/%ZZ would throw past it and
 * end the process) and answers 500 to a malformed subprotocol list. Here every identity that is not a valid
 * charger id is refused with 400, and the request's URL is rewritten to its canonical form, so the library
 * only ever parses `/ocpp/{a valid charger id}`.
 */
export function screenUpgrade(request: IncomingMessage): UpgradeVerdict {
  const path = (request.url ?? '').split('?')[0] ?? '';
  if (!path.startsWith(`${OCPP_PATH}/`)) return { status: 404, message: 'Not found' };
  const segment = path.slice(OCPP_PATH.length + 1);
  let chargerId: string;
  try {
    chargerId = decodeURIComponent(segment);
  } catch {
    return { status: 400, message: 'Malformed charger id in the path' };
  }
  if (!isChargerId(chargerId)) {
    return { status: 400, message: 'Invalid charger id: 1 to 48 letters, digits, ".", "_", "-" or "~"' };
  }
  const upgrade = request.headers.upgrade;
  if (typeof upgrade !== 'string' || upgrade.trim().toLowerCase() !== 'websocket') {
    return { status: 400, message: 'Only WebSocket upgrades are served here' };
  }
  const protocols = request.headers['sec-websocket-protocol'];
  if (protocols !== undefined) {
    try {
      parseSubprotocols(protocols);
    } catch {
      return { status: 400, message: 'Malformed Sec-WebSocket-Protocol header' };
    }
  }
  request.url = `${OCPP_PATH}/${chargerId}`;
  return { chargerId };
}

/** Answers an upgrade request with a plain HTTP status and closes the socket, whatever the peer does meanwhile. */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  // A peer that resets the connection while we answer must not raise an unhandled 'error'.
  socket.on('error', () => {});
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
