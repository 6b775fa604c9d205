import { z } from 'zod';
import { idQuery, idSchema, instantFrom2000 } from './common.ts';
import { listQuery } from './list.ts';

/**
 * Firmware and diagnostics (issue 32, section 2; docs/decisions.md, Firmware and diagnostics): files for and
 * from chargers, the requests that send them (UpdateFirmware, GetDiagnostics) and the steps the charger
 * reports (FirmwareStatusNotification, DiagnosticsStatusNotification).
 */

/** The largest firmware file an admin may upload: 256 MiB (a charger's image is a few to 100 MB). */
export const FIRMWARE_MAX_BYTES = 256 * 1024 * 1024;
/** The largest diagnostics file a charger may upload: 32 MiB (its logs, usually a few hundred kB). */
export const DIAGNOSTICS_MAX_BYTES = 32 * 1024 * 1024;

export const CHARGER_FILE_KINDS = ['firmware', 'diagnostics'] as const;
export type ChargerFileKind = (typeof CHARGER_FILE_KINDS)[number];

/** OCPP 1.6 FirmwareStatusNotification's statuses. */
export const FIRMWARE_STATUSES = [
  'Downloaded',
  'DownloadFailed',
  'Downloading',
  'Idle',
  'InstallationFailed',
  'Installing',
  'Installed',
] as const;
/** OCPP 1.6 DiagnosticsStatusNotification's statuses. */
export const DIAGNOSTICS_STATUSES = ['Idle', 'Uploaded', 'UploadFailed', 'Uploading'] as const;

/**
 * The statuses that end a request: nothing more comes of it. OCPP 2.0.1's FirmwareStatusNotification and
 * LogStatusNotification add failures of their own (kept as the charger says them).
 */
export const FINAL_STATUSES: Record<ChargerFileKind, readonly string[]> = {
  firmware: [
    'Installed',
    'InstallationFailed',
    'DownloadFailed',
    'InstallVerificationFailed',
    'InvalidSignature',
  ],
  diagnostics: [
    'Uploaded',
    'UploadFailed',
    'UploadFailure',
    'BadMessage',
    'NotSupportedOperation',
    'PermissionDenied',
  ],
};
/** The statuses that went wrong. */
export const FAILED_STATUSES: readonly string[] = [
  'DownloadFailed',
  'InstallationFailed',
  'UploadFailed',
  'InstallVerificationFailed',
  'InvalidSignature',
  'UploadFailure',
  'BadMessage',
  'NotSupportedOperation',
  'PermissionDenied',
];

export const CHARGER_FILE_MESSAGES = {
  version: 'Version is required, at most 50 characters.',
  noFile: "No file was sent. Send it as multipart/form-data, in the field 'file'.",
  empty: 'The file is empty.',
  firmwareTooLarge: `The firmware file is larger than ${FIRMWARE_MAX_BYTES / 1024 / 1024} MB.`,
  diagnosticsTooLarge: `The diagnostics file is larger than ${DIAGNOSTICS_MAX_BYTES / 1024 / 1024} MB.`,
  notFound: 'File not found',
  firmwareNotFound: 'No such firmware file',
  inUse: "Can't delete: a firmware update in progress may still download this file.",
  retrieveDate: 'retrieveDate must be an ISO date with its offset, e.g. 2026-05-01T10:00:00+07:00.',
  retrieveDateFar: 'retrieveDate must be within a year from now.',
  retries: 'retries must be a whole number from 0 to 100.',
  retryInterval: 'retryInterval must be a whole number of seconds from 0 to 86400.',
  time: 'must be an ISO date with its offset, e.g. 2026-05-01T10:00:00+07:00.',
  timeOrder: 'startTime must not be after stopTime.',
} as const;

const YEAR_MS = 365 * 24 * 3600_000;

const retries = z
  .number({ error: CHARGER_FILE_MESSAGES.retries })
  .int({ error: CHARGER_FILE_MESSAGES.retries })
  .min(0, { error: CHARGER_FILE_MESSAGES.retries })
  .max(100, { error: CHARGER_FILE_MESSAGES.retries });
const retryInterval = z
  .number({ error: CHARGER_FILE_MESSAGES.retryInterval })
  .int({ error: CHARGER_FILE_MESSAGES.retryInterval })
  .min(0, { error: CHARGER_FILE_MESSAGES.retryInterval })
  .max(86_400, { error: CHARGER_FILE_MESSAGES.retryInterval });
const retrieveDate = instantFrom2000(CHARGER_FILE_MESSAGES.retrieveDate).refine(
  (text) => new Date(text).getTime() <= Date.now() + YEAR_MS,
  CHARGER_FILE_MESSAGES.retrieveDateFar,
);

/** `POST /api/charger-file`'s query: the firmware's version and, if it is for one brand, the brand. */
export const firmwareUploadQuery = z.object({
  version: z
    .string({ error: CHARGER_FILE_MESSAGES.version })
    .trim()
    .min(1, CHARGER_FILE_MESSAGES.version)
    .max(50, CHARGER_FILE_MESSAGES.version),
  chargerBrandId: idQuery.optional(),
});
export type FirmwareUploadQuery = z.infer<typeof firmwareUploadQuery>;

/** `GET /api/charger-file`: one kind's files, newest first; firmware may be narrowed to a brand's. */
export const chargerFileListQuery = listQuery.extend({
  kind: z.enum(CHARGER_FILE_KINDS),
  chargerBrandId: idQuery.optional(),
});
export type ChargerFileListQuery = z.infer<typeof chargerFileListQuery>;

/** A stored file (only complete files are ever listed or served). */
export const chargerFile = z
  .object({
    id: z.number().int(),
    kind: z.enum(CHARGER_FILE_KINDS),
    /** Diagnostics: the charger that uploaded it. */
    chargerId: z.string().nullable(),
    /** Firmware: the brand it is for, if the admin said. */
    chargerBrandId: z.number().int().nullable(),
    chargerBrandName: z.string().nullable(),
    name: z.string(),
    /** Firmware: the version it installs. */
    version: z.string().nullable(),
    size: z.number().int(),
    /** Lowercase hex. */
    sha256: z.string(),
    createdAt: z.string(),
    /** Who uploaded it (firmware); null for a charger's upload. */
    createdByEmail: z.string().nullable(),
  })
  .meta({ id: 'ChargerFile' });
export type ChargerFile = z.infer<typeof chargerFile>;

export const chargerFileListResponse = z.object({ total: z.number().int(), files: z.array(chargerFile) });
export const chargerFileResponse = z.object({ file: chargerFile });

/** UpdateFirmware to one charger: the file, when to fetch it (default now), and OCPP's retries. */
export const firmwareBody = z.strictObject({
  fileId: idSchema('fileId is required: the id of a firmware file.'),
  retrieveDate: retrieveDate.optional(),
  retries: retries.optional(),
  retryInterval: retryInterval.optional(),
});
export type FirmwareBody = z.infer<typeof firmwareBody>;

const instant = (field: string) => instantFrom2000(`${field} ${CHARGER_FILE_MESSAGES.time}`);

/** GetDiagnostics: the log's period (optional) and OCPP's retries. */
export const diagnosticsBody = z
  .strictObject({
    startTime: instant('startTime').optional(),
    stopTime: instant('stopTime').optional(),
    retries: retries.optional(),
    retryInterval: retryInterval.optional(),
  })
  .refine(
    (body) =>
      !body.startTime ||
      !body.stopTime ||
      new Date(body.startTime).getTime() <= new Date(body.stopTime).getTime(),
    { message: CHARGER_FILE_MESSAGES.timeOrder, path: ['startTime'] },
  );
export type DiagnosticsBody = z.infer<typeof diagnosticsBody>;

/** GetDiagnostics' answer: Accepted with the file it will upload, or without one when it has nothing. */
export const diagnosticsResponse = z.object({ status: z.string(), fileName: z.string().optional() });
export type DiagnosticsResponse = z.infer<typeof diagnosticsResponse>;

/** One status the charger reported, with the time we take it at. */
export const fileRequestStep = z.object({ status: z.string(), at: z.string() });
export type FileRequestStep = z.infer<typeof fileRequestStep>;

/** A firmware update or diagnostics request to one charger, and how it went. */
export const chargerFileRequest = z
  .object({
    id: z.number().int(),
    kind: z.enum(CHARGER_FILE_KINDS),
    chargerId: z.string(),
    /** Firmware: the file sent; diagnostics: the file received, once uploaded. */
    fileId: z.number().int().nullable(),
    fileName: z.string().nullable(),
    version: z.string().nullable(),
    /** A brand batch's job. */
    jobId: z.number().int().nullable(),
    requestedByEmail: z.string().nullable(),
    requestedAt: z.string(),
    retrieveAt: z.string().nullable(),
    /** The command's outcome: Accepted, NotSupported, Offline, Timeout or Error (null while it is sent). */
    answer: z.string().nullable(),
    /** GetDiagnostics: the file name the charger said it would upload. */
    answerFileName: z.string().nullable(),
    /** The last status the charger reported. */
    status: z.string().nullable(),
    statusAt: z.string().nullable(),
    steps: z.array(fileRequestStep),
    /** More steps may come (sent or accepted, and no final status yet). */
    open: z.boolean(),
  })
  .meta({ id: 'ChargerFileRequest' });
export type ChargerFileRequest = z.infer<typeof chargerFileRequest>;

export const fileRequestListQuery = z.object({
  size: z.coerce.number().int().min(1).max(100).default(10),
});
export const chargerFileRequestListResponse = z.object({ requests: z.array(chargerFileRequest) });

/** Firmware to every active charger of a brand: the file, the retrieve date, and the batch token. */
export const firmwareBatchBody = z.strictObject({
  fileId: idSchema('fileId is required: the id of a firmware file.'),
  retrieveDate: retrieveDate.optional(),
  token: z.string({ error: 'Token is required.' }).min(1, 'Token is required.').max(500),
});
export type FirmwareBatchBody = z.infer<typeof firmwareBatchBody>;

/** A file size as people read it: 1.5 MB, 820 kB, 12 B. */
export function fileSizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${bytes} B`;
}
