/** OCPP 2.0.1 IdTokenType: the identifier and what kind of identifier it is. */
export interface IdToken {
  idToken: string;
  type: string;
}

/**
 * A 2.0.1 idToken as our id tag (docs/ocpp.md): the identifier itself, whatever its type (an RFID card's UID,
 * the app's Central tag, an eMAID, a key code…), compared without regard to case as 1.6 id tags are.
 * NoAuthorization (a charger that authorises nobody) is the empty tag, which no member holds: it is treated as
 * an unknown tag (Invalid, or Accepted with no booking under OCPP_UNKNOWN_TAGS=accept), whatever text it has.
 */
export const idTagOf = (token: IdToken): string => (token.type === 'NoAuthorization' ? '' : token.idToken);

/** 1.6's IdTagInfo in 2.0.1's words: the status as it is, the expiry as the cache expiry, the parent as group. */
export function idTokenInfo(info: { status: string; expiryDate?: string; parentIdTag?: string }) {
  return {
    status: info.status,
    ...(info.expiryDate ? { cacheExpiryDateTime: info.expiryDate } : {}),
    ...(info.parentIdTag ? { groupIdToken: { idToken: info.parentIdTag, type: 'Central' } } : {}),
  };
}
