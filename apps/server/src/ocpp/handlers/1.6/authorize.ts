import type { CallHandler } from '../context.ts';

/** Authorize: may this id tag charge here? A card's expiry and parent go with the status (IdTagInfo). */
export const authorize: CallHandler = async ({ chargerId, events }, params) => ({
  idTagInfo: await events.authorize(chargerId, String(params.idTag)),
});
