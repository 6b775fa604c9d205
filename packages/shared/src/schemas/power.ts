import { z } from 'zod';

/**
 * A limited site's live load (issue 34), GET /api/landlord/:id/power: the site's power over the last hour
 * against its limit, and each active session's allowance now. Roles and scope as GET /api/landlord/:id.
 */
export const powerSession = z.object({
  connectorId: z.number().int(),
  chargerId: z.string(),
  chargerNameEn: z.string(),
  connectorNameEn: z.string(),
  /** The connector's number on its charger (OCPP connectorId; a 2.0.1 charger's EVSE). */
  ocppConnectorId: z.number().int(),
  startedAt: z.string(),
  /** What the sharing gave it (kW, 3 decimals); 0 while it waits. */
  allowanceKw: z.number(),
  /** What it drew at its last meter value (kW), null before the first. */
  powerKw: z.number().nullable(),
  waiting: z.boolean(),
  /** The charger's answer to the profile: Pending, Accepted, Rejected, NotSupported, Offline, an error word. */
  profileStatus: z.string(),
});
export type PowerSessionItem = z.infer<typeof powerSession>;

export const powerPoint = z.object({
  /** The start of the minute (ISO 8601). */
  at: z.string(),
  /** The site's power in that minute (kW, 3 decimals): the sum of its connectors' last samples there. */
  kw: z.number(),
});
export type PowerPoint = z.infer<typeof powerPoint>;

export const sitePower = z.object({
  landlordId: z.number().int(),
  maxPowerKw: z.number().nullable(),
  phases: z.number().int().nullable(),
  voltage: z.number().int().nullable(),
  /** Last hour, one point per minute, oldest first (minutes with no sample count 0). */
  points: z.array(powerPoint),
  sessions: z.array(powerSession),
});
export type SitePower = z.infer<typeof sitePower>;
