import {
  BOOKING_MESSAGES,
  type BookingAmountBody,
  type BookingItem,
  type StaffBookingAction,
} from '@ev/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LIST_QUERY_KEY } from '../../components/list/use-list-query.ts';
import { api } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';

export interface BookingEventEntry {
  event: string;
  fromStatus: string | null;
  toStatus: string;
  actor: string;
  actorName: string | null;
  at: string;
  detail: Record<string, unknown> | null;
}

export interface BookingDetail {
  booking: BookingItem;
  history: BookingEventEntry[];
}

const DETAIL_KEY = 'booking-detail';

/** One booking with its history (`GET /api/booking/{id}`), for the detail dialog. */
export function useBookingDetail(id: number) {
  return useQuery({
    queryKey: [DETAIL_KEY, id],
    queryFn: ({ signal }) => api<BookingDetail>(`/booking/${id}`, { signal }),
    staleTime: 0,
  });
}

/** A staff action's call: the path under the booking, and the notice of section 8 when it succeeds. */
interface ActionCall {
  method: 'POST' | 'PATCH' | 'DELETE';
  path: string;
  success: string;
}

const CALLS: Record<StaffBookingAction, ActionCall> = {
  stop: { method: 'POST', path: '/stop', success: BOOKING_MESSAGES.stopped },
  'force-stop': { method: 'POST', path: '/force-stop', success: BOOKING_MESSAGES.forceStopped },
  avaliable: { method: 'POST', path: '/avaliable', success: BOOKING_MESSAGES.avaliable },
  'set-amount': { method: 'PATCH', path: '', success: BOOKING_MESSAGES.setAmount },
  pay: { method: 'POST', path: '/pay', success: BOOKING_MESSAGES.paid },
  'cancel-payment': { method: 'POST', path: '/cancel-payment', success: BOOKING_MESSAGES.cancelledPayment },
  delete: { method: 'DELETE', path: '', success: BOOKING_MESSAGES.deleted },
};

export type ActionBody = BookingAmountBody | { amount: number } | undefined;

/**
 * Runs a staff action on a booking: the spec's success notice, or the server's message through the app's
 * error notification (the query client's handler). The lists and the detail reload either way: a refusal
 * (409) means the booking moved on, and the screen should show where it is now.
 */
export function useBookingAction(id: number, action: StaffBookingAction) {
  const queryClient = useQueryClient();
  const call = CALLS[action];
  return useMutation({
    mutationFn: (body: ActionBody) =>
      api<{ message?: string }>(`/booking/${id}${call.path}`, { method: call.method, body }),
    onSuccess: (answer) => notify('success', answer?.message || call.success),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY] }),
        queryClient.invalidateQueries({ queryKey: [DETAIL_KEY, id] }),
      ]);
    },
  });
}
