import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../../lib/api.ts';
import { SELF_QUERY_KEY } from '../../lib/self.ts';

/** A wrong current password: the password modal says so itself. */
export const WRONG_CURRENT_PASSWORD = 'currentPass';

type Saved = { message: string };

export function useUpdateName() {
  return useMutation({
    mutationFn: (body: { firstName: string; lastName: string }) =>
      api<Saved>('/user/self', { method: 'PATCH', body }),
  });
}

export function useChangePassword() {
  return useMutation({
    meta: { handledErrors: [WRONG_CURRENT_PASSWORD] },
    mutationFn: (body: { currentPass: string; pass: string }) =>
      api<Saved>('/user/self', { method: 'PATCH', body }),
  });
}

/** Loads the profile again; the self query copies it into the session (name in the header). */
export function useReloadSelf() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.refetchQueries({ queryKey: SELF_QUERY_KEY }), [queryClient]);
}

export interface PeaToken {
  token: string;
  tokenC: string;
}

/** The server's answer when PEA_TOKEN or PEA_TOKEN_C is not set: its message says which, for the page. */
export const PEA_NOT_CONFIGURED_STATUS = 503;

export function usePeaToken() {
  return useMutation({
    meta: { handledStatuses: [PEA_NOT_CONFIGURED_STATUS] },
    mutationFn: async () => (await api<{ peaToken: PeaToken }>('/pea')).peaToken,
  });
}
