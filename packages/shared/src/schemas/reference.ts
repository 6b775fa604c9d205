import { z } from 'zod';

export const province = z.object({ id: z.number().int(), nameEn: z.string(), nameTh: z.string() });
export type Province = z.infer<typeof province>;
export const provincesResponse = z.object({ provinces: z.array(province) });

export const peaResponse = z.object({ peaToken: z.object({ token: z.string(), tokenC: z.string() }) });

export const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});

/** GET /api/ready: the server takes traffic (a 503 `{ message }` says why not). */
export const readyResponse = z.object({ status: z.literal('ready') });

/** What the web app needs to know of the server's settings (public: the map has no secrets). */
export const appConfigResponse = z.object({
  mapTileUrl: z.string().nullable(),
  mapAttribution: z.string(),
});
export type AppConfig = z.infer<typeof appConfigResponse>;

/** A published legal page (terms or privacy) as the public calls return it. */
export const legalPage = z.object({
  id: z.number().int(),
  type: z.enum(['terms', 'privacy']),
  titleEn: z.string(),
  titleTh: z.string(),
  detailEn: z.string(),
  detailTh: z.string(),
  updatedAt: z.string(),
});
export type LegalPage = z.infer<typeof legalPage>;
export const termsResponse = z.object({ terms: legalPage });
export const privacyResponse = z.object({ privacy: legalPage });
