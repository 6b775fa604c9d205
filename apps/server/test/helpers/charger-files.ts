import type { ChargerFileRequest } from '@ev/shared';
import type { Behaviour, FileTransferBehaviour, SimulatorEvent } from '@ev/tools/simulator';
import { eventually } from './ocpp.ts';
import { type CallResult, callsTo } from './test-app.ts';

/** Uploads a firmware file as the web app does: multipart, the file in `file`, version and brand in the query. */
export async function uploadFirmware(
  url: string,
  token: string | undefined,
  bytes: Uint8Array,
  name: string,
  query = 'version=2.0.1',
): Promise<CallResult> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await fetch(`${url}/api/charger-file?${query}`, {
    method: 'POST',
    headers: token ? { 'x-access-token': token } : {},
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body, headers: response.headers };
}

/** A charger's requests of one kind, newest first. */
export async function requestsOf(
  url: string,
  token: string,
  chargerId: string,
  kind: 'firmware' | 'diagnostics',
): Promise<ChargerFileRequest[]> {
  const response = await callsTo(url)('GET', `/api/charger/${encodeURIComponent(chargerId)}/${kind}`, {
    token,
  });
  if (response.status !== 200) throw new Error(`${kind} of ${chargerId}: ${JSON.stringify(response.body)}`);
  return response.body.requests;
}

/** Waits until the charger's latest request of `kind` reached `status`; answers that request. */
export function latestReaches(
  url: string,
  token: string,
  chargerId: string,
  kind: 'firmware' | 'diagnostics',
  status: string,
  timeoutMs = 20_000,
): Promise<ChargerFileRequest> {
  return eventually(async () => {
    const [latest] = await requestsOf(url, token, chargerId, kind);
    return latest?.status === status ? latest : null;
  }, timeoutMs);
}

/** The location the simulated charger was given in its last UpdateFirmware or GetDiagnostics. */
export function lastLocation(seen: SimulatorEvent[], chargerId: string, action: string): string {
  const command = seen.findLast((e) => e.type === 'command' && e.id === chargerId && e.action === action);
  const location = (command as { params?: { location?: string } } | undefined)?.params?.location;
  if (!location) throw new Error(`${chargerId} got no ${action}`);
  return location;
}

/** Deterministic bytes of any length (a firmware image for the tests). */
export function testBytes(length: number, seed = 7): Buffer {
  const bytes = Buffer.alloc(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1_103_515_245 + 12_345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** Simulated chargers a test steers one by one: what they saw, how they answer, how their transfers go. */
export function steeredChargers() {
  const seen: SimulatorEvent[] = [];
  const behaviours = new Map<string, Behaviour>();
  const transfers = new Map<string, FileTransferBehaviour>();
  const options = {
    onEvent: (event: SimulatorEvent) => seen.push(event),
    behaviour: (id: string) => behaviours.get(id) ?? 'normal',
    fileTransfer: (id: string) => transfers.get(id) ?? 'normal',
  };
  return { seen, behaviours, transfers, options };
}
