import type { LoginBody, LoginResponse, SelfUser, TermAcceptBody } from '@ev/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { fetchLegalPage } from '../../lib/legal.ts';
import { fetchSelf, SELF_QUERY_KEY } from '../../lib/self.ts';
import { session } from '../../lib/session.ts';

/** Login answers these for an unknown user or a wrong password; the page says so itself. */
export const LOGIN_FAIL_MESSAGES = ['user', 'pass'] as const;

export interface LoginInput {
  email: string;
  pass: string;
  remember: boolean;
}

/** Signs in, loads the profile with the new token, then stores the whole session at once. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handledErrors: LOGIN_FAIL_MESSAGES },
    mutationFn: async ({ email, pass, remember }: LoginInput) => {
      const body: LoginBody = { email: email.trim(), pass, type: 'admin' };
      const login = await api<LoginResponse>('/auth/login', { method: 'POST', body, token: null });
      const user = await fetchSelf(login.accessToken);
      return { login, user, remember };
    },
    onSuccess: ({ login, user, remember }) => {
      // Nothing cached for a previous user may show to this one.
      queryClient.removeQueries();
      queryClient.setQueryData<SelfUser>(SELF_QUERY_KEY, user);
      session.signIn(
        { accessToken: login.accessToken, adminRole: user.adminRole, user, termAccept: user.termAccept },
        remember,
      );
    },
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      api<{ message: string }>('/auth/forgot-password', {
        method: 'POST',
        body: { email: email.trim(), type: 'admin' },
        token: null,
      }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { emailToken: string; pass: string }) =>
      api<{ message: string }>('/auth/reset-password', { method: 'POST', body, token: null }),
  });
}

/** Sends the logout call without waiting for it: a failed call must not keep the user signed in. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    const token = session.get()?.accessToken;
    if (token) void api('/auth/logout', { method: 'POST', token }).catch(() => undefined);
    session.clear();
    queryClient.clear();
  }, [queryClient]);
}

const LANDING_KEY = ['landing-legal'] as const;

/** The terms and privacy pages in force; either may be null when none is published. */
export function useLandingPages() {
  return useQuery({
    queryKey: LANDING_KEY,
    queryFn: async () => {
      const [terms, privacy] = await Promise.all([fetchLegalPage('terms'), fetchLegalPage('privacy')]);
      return { terms, privacy };
    },
    staleTime: 0,
  });
}

export const TERMS_CHANGED_STATUS = 409;

export function useAcceptTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handledStatuses: [TERMS_CHANGED_STATUS] },
    mutationFn: (body: TermAcceptBody) =>
      api<{ message: string; termAccept: boolean }>('/user/self/term-accept', { method: 'POST', body }),
    onSuccess: ({ termAccept }) => {
      session.update({ termAccept });
      queryClient.setQueryData<SelfUser>(SELF_QUERY_KEY, (user) => (user ? { ...user, termAccept } : user));
    },
    onError: (error) => {
      // A newer page was published while the user read: load the texts again.
      if (error instanceof ApiError && error.status === TERMS_CHANGED_STATUS) {
        void queryClient.invalidateQueries({ queryKey: LANDING_KEY });
      }
    },
  });
}
