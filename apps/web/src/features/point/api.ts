import { POINT_MESSAGES, type PointBody, type PointRate } from '@ev/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormInstance } from 'antd';
import { saveRecord } from '../../components/form/record.ts';
import { withoutFieldPrefix } from '../../components/form/server-message.ts';
import { LIST_QUERY_KEY } from '../../components/list/use-list-query.ts';
import { useSuccessPopup } from '../../components/success-popup.ts';
import { ApiError, api } from '../../lib/api.ts';
import { notifyCallError } from '../../lib/notify.ts';

export const POINT_ENDPOINT = '/point';
/** Under the lists' key, so the kit's Delete reloads it too. */
const POINT_QUERY_KEY = [LIST_QUERY_KEY, POINT_ENDPOINT];

const SECOND = 1000;
const HOUR = 3_600_000;

/**
 * When to load the cards again: just after the soonest pending card's start, when it comes into force (the
 * server tells the statuses by its clock: a few seconds either way only reload again), else not at all.
 */
export function nextStartDelay(points: PointRate[] | undefined, now = Date.now()): number | false {
  const starts = (points ?? [])
    .filter((card) => card.status === 'pending')
    .map((card) => Date.parse(card.validFrom));
  if (starts.length === 0) return false;
  return Math.min(Math.max(Math.min(...starts) - now + SECOND, 2 * SECOND), HOUR);
}

/** Every rate card (`GET /api/point`: the API answers all of them, not a page), in the server's order. */
export function usePoints() {
  return useQuery({
    queryKey: POINT_QUERY_KEY,
    queryFn: ({ signal }) =>
      api<{ points: PointRate[] }>(POINT_ENDPOINT, { signal }).then((body) => body.points),
    staleTime: 0,
    refetchInterval: (query) => nextStartDelay(query.state.data),
  });
}

/** The form's fields a refusal of the server names ('body.validFrom: …'). */
const FIELDS = ['fromBaht', 'toPoint', 'fromPoint', 'toBaht', 'validFrom'] as const;

/**
 * Saves the modal: POST /api/point (New) or PATCH /api/point/{id} (Edit). On success the modal closes, the
 * list reloads and the success popup shows. On failure the modal stays, editable again, with the server's
 * message in the usual notice and on the field it names (another card at the same start: the date); a card
 * that came into force meanwhile (409) also reloads the list behind, which then shows it Active.
 */
export function useSavePoint(form: FormInstance<PointBody>, id: number | undefined, onClose: () => void) {
  const queryClient = useQueryClient();
  const showSuccess = useSuccessPopup();
  const reload = () => queryClient.invalidateQueries({ queryKey: POINT_QUERY_KEY });
  const mutation = useMutation({
    meta: { silent: true },
    mutationFn: (body: PointBody) => saveRecord(POINT_ENDPOINT, id, body),
    onSuccess: async () => {
      onClose();
      await reload();
      await showSuccess();
    },
    onError: (error) => {
      notifyCallError(withoutFieldPrefix(error), undefined);
      if (!(error instanceof ApiError)) return;
      const named = /^body\.(\w+): (.+)$/.exec(error.message);
      const field = FIELDS.find((name) => name === named?.[1]);
      if (field && named) form.setFields([{ name: field, errors: [named[2] as string] }]);
      if (error.message === POINT_MESSAGES.sameInstant) {
        form.setFields([{ name: 'validFrom', errors: [error.message] }]);
      } else if (error.status === 409) void reload();
    },
  });
  return { save: (body: PointBody) => mutation.mutate(body), saving: mutation.isPending };
}
