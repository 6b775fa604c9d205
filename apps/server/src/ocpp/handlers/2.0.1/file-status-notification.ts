import type { CallHandler } from '../context.ts';

/**
 * FirmwareStatusNotification and LogStatusNotification (2.0.1): a step of a firmware update or a log upload.
 * The status is kept as the charger said it (2.0.1's words include 1.6's and add some: DownloadScheduled,
 * InvalidSignature, UploadFailure…, which the screens know), taken at our receipt, on the request its
 * requestId names (ours: charger_file_requests.id), else the charger's latest open one.
 */
const fileStatus =
  (kind: 'firmware' | 'diagnostics'): CallHandler =>
  async ({ chargerId, events, log }, params) => {
    const status = String(params.status);
    const requestId = typeof params.requestId === 'number' ? params.requestId : undefined;
    const files = events.files;
    if (files) {
      try {
        if (kind === 'firmware') await files.firmwareStatus(chargerId, status, new Date(), requestId);
        else await files.diagnosticsStatus(chargerId, status, new Date(), requestId);
      } catch (error) {
        log.error({ err: error, chargerId, status }, `OCPP: recording the ${kind} status failed`);
      }
    }
    return {};
  };

export const firmwareStatusNotification = fileStatus('firmware');
export const logStatusNotification = fileStatus('diagnostics');
