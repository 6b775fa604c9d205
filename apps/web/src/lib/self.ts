import type { SelfUser } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './api.ts';
import { session } from './session.ts';

export const SELF_QUERY_KEY = ['self'] as const;

/** GET /api/user/self; `token` lets the login flow load the profile before the session exists. */
export async function fetchSelf(token?: string): Promise<SelfUser> {
  const { user } = await api<{ user: SelfUser }>('/user/self', token === undefined ? {} : { token });
  return user;
}

/** Copies a fresh profile into the session: name, role, and whether the terms in force are accepted. */
export function storeSelf(user: SelfUser) {
  session.update({ user, adminRole: user.adminRole, termAccept: user.termAccept });
}

/**
 * The signed-in user's profile, refreshed from the server when a signed-in screen mounts. A new terms
 * page published meanwhile turns termAccept false, and the guards then ask the user to accept it.
 */
export function useSelfQuery() {
  const query = useQuery({ queryKey: SELF_QUERY_KEY, queryFn: () => fetchSelf() });
  useEffect(() => {
    if (query.data) storeSelf(query.data);
  }, [query.data]);
  return query;
}
