import type { ContactUs, ContactUsForm } from '@ev/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { withoutFieldPrefix } from '../../components/form/server-message.ts';
import { api } from '../../lib/api.ts';
import { notifyCallError } from '../../lib/notify.ts';

export const CONTACT_US_QUERY_KEY = ['contact-us'];

export function useContactUs() {
  return useQuery({
    queryKey: CONTACT_US_QUERY_KEY,
    queryFn: () => api<{ contactUs: ContactUs }>('/contact-us').then((body) => body.contactUs),
    staleTime: 0,
  });
}

export function useSaveContactUs() {
  return useMutation({
    // A refused field reads 'body.email: …': the notice shows only the text.
    meta: { silent: true },
    onError: (error) => notifyCallError(withoutFieldPrefix(error), undefined),
    mutationFn: (body: ContactUsForm) => api<{ message: string }>('/contact-us', { method: 'PATCH', body }),
  });
}
