import type { CDPSession } from 'playwright-core';

/**
 * What a page downloaded, read from the DevTools protocol: per response the bytes that crossed the wire
 * (`encodedDataLength`, headers included) and the bytes after decoding. Used by `npm run bench:web` and by
 * the browser test that holds a cold /login to its budget.
 */
export interface Transfer {
  url: string;
  /** The DevTools resource type: Script, Stylesheet, Document, Font… */
  type: string;
  /** Bytes on the wire, headers included. */
  encoded: number;
  /** Bytes after decoding: what the server would have sent uncompressed. */
  decoded: number;
}

/** Collects every response of the page with its encoded (wire) and decoded sizes. */
export function recordTransfers(cdp: CDPSession) {
  const pending = new Map<string, Transfer>();
  let done: Transfer[] = [];
  cdp.on('Network.responseReceived', (event) => {
    pending.set(event.requestId, { url: event.response.url, type: event.type, encoded: 0, decoded: 0 });
  });
  cdp.on('Network.dataReceived', (event) => {
    const response = pending.get(event.requestId);
    if (response) response.decoded += event.dataLength;
  });
  cdp.on('Network.loadingFinished', (event) => {
    const response = pending.get(event.requestId);
    if (!response) return;
    response.encoded = event.encodedDataLength;
    pending.delete(event.requestId);
    done.push(response);
  });
  return {
    take(): Transfer[] {
      const taken = done;
      done = [];
      return taken;
    },
  };
}

/** A script or a style sheet (what the first-load budget counts). */
export const isJsOrCss = (transfer: Transfer) =>
  transfer.type === 'Script' || transfer.type === 'Stylesheet' || /\.(m?js|css)(\?|$)/.test(transfer.url);
