import type { CallHandler } from '../context.ts';

/**
 * FirmwareStatusNotification and DiagnosticsStatusNotification: a step of the charger's firmware update or
 * diagnostics upload, taken at our receipt (1.6 carries no time). A failure to record it is logged and the
 * charger still gets its answer: it would only send the same step again.
 */
const fileStatus =
  (kind: 'firmware' | 'diagnostics'): CallHandler =>
  async ({ chargerId, events, log }, params) => {
    const status = String(params.status);
    const files = events.files;
    if (files) {
      try {
        if (kind === 'firmware') await files.firmwareStatus(chargerId, status, new Date());
        else await files.diagnosticsStatus(chargerId, status, new Date());
      } catch (error) {
        log.error({ err: error, chargerId, status }, `OCPP: recording the ${kind} status failed`);
      }
    }
    return {};
  };

export const firmwareStatusNotification = fileStatus('firmware');
export const diagnosticsStatusNotification = fileStatus('diagnostics');
