import type { CallHandler } from '../context.ts';
import { type IdToken, idTagOf, idTokenInfo } from './id-token.ts';

/** Authorize (2.0.1): may this idToken charge here? Answered as 1.6's Authorize is (id-token.ts maps both ways). */
export const authorize: CallHandler = async ({ chargerId, events }, params) => ({
  idTokenInfo: idTokenInfo(await events.authorize(chargerId, idTagOf(params.idToken as IdToken))),
});
