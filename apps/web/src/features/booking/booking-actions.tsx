import {
  type AdminRole,
  type BookingItem,
  type BookingStatus,
  type StaffBookingAction,
  staffActionsFor,
} from '@ev/shared';
import { App, Button, Flex } from 'antd';
import { useState } from 'react';
import { bahtText } from '../../lib/format.ts';
import { useBookingAction } from './api.ts';
import { amountDue } from './booking-format.ts';
import { SetAmountModal } from './set-amount-modal.tsx';

export const ACTION_LABELS: Record<StaffBookingAction, string> = {
  stop: 'Stop',
  'force-stop': 'Force stop',
  avaliable: 'Avaliable',
  'set-amount': 'Set amount',
  pay: 'Pay',
  'cancel-payment': 'Cancel payment',
  delete: 'Delete',
};

/** The booking's name in the generic delete dialog (section 8: 'Delete {name}?'). */
export const bookingName = (booking: Pick<BookingItem, 'id'>) => `booking #${booking.id}`;

interface Question {
  title: string;
  content: string;
  okText: string;
  danger?: boolean;
}

/** The confirmation each action asks first; Delete uses the generic delete wording. */
function question(action: StaffBookingAction, booking: BookingItem): Question {
  const id = booking.id;
  switch (action) {
    case 'stop':
      return {
        title: `Stop charging booking #${id}?`,
        content: `A remote stop is sent to charger ${booking.chargerId}. The booking goes to Charged when the charger confirms.`,
        okText: 'Stop',
      };
    case 'force-stop':
      return {
        title: `Force stop booking #${id}?`,
        content:
          'The booking goes to payment (Unpaid) now, priced with the energy so far, whether or not the charger answers.',
        okText: 'Force stop',
        danger: true,
      };
    case 'avaliable':
      return {
        title: `Skip cable removal for booking #${id}?`,
        content: 'The booking goes to payment (Unpaid) now, with the overstay counted up to now.',
        okText: 'Avaliable',
      };
    case 'pay':
      return {
        title: `Pay booking #${id}?`,
        content: `A manual payment of ${bahtText(amountDue(booking))} THB is recorded, with the next invoice number.`,
        okText: 'Pay',
      };
    case 'cancel-payment':
      return {
        title: `Cancel payment of booking #${id}?`,
        content: 'The booking is cancelled and nothing is owed.',
        okText: 'Cancel payment',
        danger: true,
      };
    default:
      return {
        title: `Delete ${bookingName(booking)}?`,
        content: `Do you want to delete this ${bookingName(booking)}?`,
        okText: 'Delete',
        danger: true,
      };
  }
}

/** One action: asks first, then calls; Set amount opens its dialog instead. */
function ActionButton({ booking, action }: { booking: BookingItem; action: StaffBookingAction }) {
  const { modal } = App.useApp();
  const run = useBookingAction(booking.id, action);
  const [editing, setEditing] = useState(false);
  const label = ACTION_LABELS[action];
  const onClick = () => {
    if (action === 'set-amount') {
      setEditing(true);
      return;
    }
    const { title, content, okText, danger } = question(action, booking);
    // Pay sends the amount the staff saw: the server refuses it (409) if the amount owed has changed since.
    const body = action === 'pay' ? { amount: amountDue(booking) } : undefined;
    modal.confirm({
      title,
      content,
      okText,
      cancelText: 'Cancel',
      okButtonProps: { danger },
      centered: true,
      // The dialog stays, its button spinning, until the call answers (a stop waits for the charger).
      onOk: () => run.mutateAsync(body).catch(() => undefined),
    });
  };
  return (
    <>
      <Button
        type="link"
        size="small"
        danger={action === 'delete' || action === 'force-stop'}
        loading={run.isPending}
        aria-label={`${label} booking #${booking.id}`}
        onClick={onClick}
      >
        {label}
      </Button>
      {editing && <SetAmountModal booking={booking} onClose={() => setEditing(false)} />}
    </>
  );
}

/** The actions the booking's status and the user's role allow (the shared transition table decides). */
const actionsFor = (booking: Pick<BookingItem, 'status'>, role: AdminRole | null) =>
  role ? staffActionsFor(booking.status as BookingStatus, role) : [];

/** The labels of the row's action buttons, as they stand side by side (the list sizes its column by them). */
export const bookingActionLabels = (booking: Pick<BookingItem, 'status'>, role: AdminRole | null) =>
  actionsFor(booking, role).map((action) => ACTION_LABELS[action]);

/** The row's actions, on one line. */
export function BookingActions({ booking, role }: { booking: BookingItem; role: AdminRole | null }) {
  const actions = actionsFor(booking, role);
  if (actions.length === 0) return null;
  return (
    <Flex gap={4} wrap={false}>
      {actions.map((action) => (
        <ActionButton key={action} booking={booking} action={action} />
      ))}
    </Flex>
  );
}
