import type { BookingItem } from '@ev/shared';
import { describe, expect, it } from 'vitest';
import { bahtText } from '../../lib/format.ts';
import {
  actorLabel,
  amountBody,
  amountDue,
  amountValues,
  breakdown,
  durationMs,
  eventLabel,
  formatDuration,
  isTicking,
  previewTotal,
  statusColor,
} from './booking-format.ts';

/** An Unpaid booking priced 90 + 0 + 10 = 100 (the server's test booking). */
function booking(overrides: Partial<BookingItem> = {}): BookingItem {
  return {
    id: 7,
    userId: 1,
    firstName: 'Somchai',
    lastName: 'Jaidee',
    email: 's@example.com',
    tel: '0812345678',
    merchantId: 1,
    merchantNameEn: 'Metro Plaza',
    landlordId: 2,
    landlordNameEn: 'Asok',
    chargerId: 'TH-1',
    chargerNameEn: 'Charger 1',
    connectorId: 10,
    connectorNameEn: 'CCS2',
    connectorTypeId: 4,
    createdAt: '2026-11-23T03:00:00.000Z',
    slotStart: null,
    slotEnd: null,
    startTime: '2026-11-23T03:00:00.000Z',
    stopTime: '2026-11-23T03:40:00.000Z',
    avaliableAt: '2026-11-23T03:50:00.000Z',
    fullAt: null,
    totalEnergyKwh: 12,
    soc: null,
    paymentMethod: null,
    status: 'stopped',
    priceByPower: 90,
    priceByDuration: 0,
    priceByPenalty: 10,
    adminAmount: null,
    totalAmount: 100,
    computed: {
      priceByPower: 90,
      priceByDuration: 0,
      priceByPenalty: 10,
      overstay: 10,
      dcFull: 0,
      billedHours: null,
      billedMinutes: null,
      overstayMinutes: 5,
      dcFullMinutes: 0,
    },
    overrides: { priceByPower: null, priceByDuration: null, priceByPenalty: null },
    live: false,
    invoiceNo: null,
    discountCode: null,
    discount: 0,
    point: 0,
    pointUsed: 0,
    ...overrides,
  };
}

describe('duration', () => {
  it('is hh:mm:ss, zero when negative, hours past a day kept whole', () => {
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59_999)).toBe('00:00:59');
    expect(formatDuration(3_723_000)).toBe('01:02:03');
    expect(formatDuration(-5000)).toBe('00:00:00');
    expect(formatDuration(100 * 3_600_000 + 1000)).toBe('100:00:01');
  });

  it('runs from the start to the stop, or to now while charging; nothing before a start', () => {
    const now = Date.parse('2026-11-23T04:00:00.000Z');
    expect(durationMs(booking(), now)).toBe(40 * 60_000);
    expect(durationMs(booking({ stopTime: null }), now)).toBe(60 * 60_000);
    expect(durationMs(booking({ startTime: null, stopTime: null }), now)).toBe(0);
    expect(isTicking(booking({ stopTime: null }))).toBe(true);
    expect(isTicking(booking())).toBe(false);
    expect(isTicking(booking({ startTime: null, stopTime: null }))).toBe(false);
  });
});

describe('amounts', () => {
  it('shows baht with 2 decimals and thousands separators', () => {
    expect(bahtText(0)).toBe('0.00');
    expect(bahtText(1234.5)).toBe('1,234.50');
    expect(bahtText(0.1 + 0.2)).toBe('0.30');
  });

  it('Pay charges the total the server owes, after the discount', () => {
    expect(amountDue(booking())).toBe(100);
    expect(amountDue(booking({ adminAmount: 50, totalAmount: 50 }))).toBe(50);
    expect(amountDue(booking({ discountCode: 'WELCOME10', discount: 10, totalAmount: 90 }))).toBe(90);
  });

  it("colours the statuses as the spec does, 'Unknown' grey", () => {
    expect(['created', 'charging', 'stopped', 'cancelled', 'paid', 'weird'].map(statusColor)).toEqual([
      'default',
      'blue',
      'gold',
      'red',
      'green',
      'default',
    ]);
  });
});

describe('the total tooltip', () => {
  it('lists the parts with what they counted, then the total', () => {
    expect(breakdown(booking())).toEqual([
      { label: 'By power', amount: '90.00', details: ['12.00 kWh'] },
      { label: 'By duration', amount: '0.00', details: [] },
      {
        label: 'By penalty',
        amount: '10.00',
        details: ['overstay 5 min (10.00)', 'DC full 0 min (0.00)'],
      },
      { label: 'Total', amount: '100.00', details: [] },
    ]);
  });

  it('marks the overrides with the computed part, the admin amount, and a live estimate', () => {
    const lines = breakdown(
      booking({
        priceByPenalty: 0,
        overrides: { priceByPower: null, priceByDuration: null, priceByPenalty: 0 },
        adminAmount: 80,
        totalAmount: 80,
        live: true,
        computed: { ...booking().computed, billedHours: 2 },
      }),
    );
    expect(lines.find((line) => line.label === 'By penalty')).toEqual({
      label: 'By penalty',
      amount: '0.00',
      details: ['set by staff, computed 10.00'],
      override: true,
    });
    expect(lines.find((line) => line.label === 'By duration')?.details).toEqual(['2 h billed']);
    expect(lines.find((line) => line.label === 'Admin amount')).toMatchObject({
      amount: '80.00',
      override: true,
    });
    expect(lines.at(-1)).toEqual({ label: 'Total', amount: '80.00', details: ['estimate while charging'] });
  });

  it('takes off the discount code (an estimate until paid) and the green points redeemed', () => {
    const unpaid = breakdown(booking({ discountCode: 'WELCOME10', discount: 10, totalAmount: 90 }));
    expect(unpaid.slice(-2)).toEqual([
      { label: 'Discount', amount: '-10.00', details: ['code WELCOME10', 'taken off at payment'] },
      { label: 'Total', amount: '90.00', details: [] },
    ]);
    const paid = breakdown(
      booking({
        status: 'paid',
        invoiceNo: 'INV-2026-000001',
        discountCode: 'WELCOME10',
        discount: 10,
        point: 25,
        pointUsed: 1250,
        totalAmount: 65,
      }),
    );
    expect(paid.slice(-3)).toEqual([
      { label: 'Discount', amount: '-10.00', details: ['code WELCOME10'] },
      { label: 'Green Point', amount: '-25.00', details: ['1,250 points redeemed'] },
      { label: 'Total', amount: '65.00', details: [] },
    ]);
  });

  it('a cancelled booking owes nothing: its parts stay, shown as waived', () => {
    const lines = breakdown(booking({ status: 'cancelled', totalAmount: 0 }));
    expect(lines.find((line) => line.label === 'By power')?.amount).toBe('90.00');
    expect(lines.at(-1)).toEqual({
      label: 'Total',
      amount: '0.00',
      details: ['cancelled: nothing is owed (the parts above were waived)'],
    });
  });
});

describe('Set amount', () => {
  it('starts from the staff amount and each part as it stands', () => {
    expect(amountValues(booking())).toEqual({
      amount: null,
      priceByPower: 90,
      priceByDuration: 0,
      priceByPenalty: 10,
    });
    const overridden = booking({
      adminAmount: 70,
      overrides: { priceByPower: 50, priceByDuration: null, priceByPenalty: null },
    });
    expect(amountValues(overridden)).toMatchObject({ amount: 70, priceByPower: 50 });
  });

  it('previews the amount when given, else the exact sum of the parts', () => {
    expect(previewTotal({ amount: null, priceByPower: 90.1, priceByDuration: 0.2, priceByPenalty: 10 })).toBe(
      100.3,
    );
    expect(previewTotal({ amount: 12, priceByPower: 90 })).toBe(12);
    expect(previewTotal({ amount: 0, priceByPower: 90 })).toBe(0);
    expect(previewTotal({})).toBe(0);
  });

  it('sends only what changes: a part unlike the computed one, a cleared override, the amount', () => {
    expect(
      amountBody(booking(), { amount: null, priceByPower: 90, priceByDuration: 0, priceByPenalty: 0 }),
    ).toEqual({ priceByPenalty: 0 });
    expect(
      amountBody(booking({ overrides: { priceByPower: 50, priceByDuration: null, priceByPenalty: null } }), {
        amount: 75,
        priceByPower: 90,
        priceByDuration: 5,
        priceByPenalty: 10,
      }),
    ).toEqual({ amount: 75, priceByPower: null, priceByDuration: 5 });
    expect(amountBody(booking({ adminAmount: 70 }), { ...amountValues(booking()), amount: null })).toEqual({
      amount: null,
    });
    expect(amountBody(booking(), amountValues(booking()))).toEqual({});
  });
});

describe('history', () => {
  it('names an event by its transition, and who made it', () => {
    expect(eventLabel('force-stop')).toBe('Force stopped');
    expect(eventLabel('walk-in')).toBe('Started as a walk-in');
    expect(eventLabel('something-new')).toBe('Something-new');
    expect(actorLabel({ actor: 'charger', actorName: 'TH-1' })).toBe('Charger TH-1');
    expect(actorLabel({ actor: 'staff', actorName: 'E2E admin Tester' })).toBe('E2E admin Tester (staff)');
    expect(actorLabel({ actor: 'member', actorName: null })).toBe('Member');
    expect(actorLabel({ actor: 'system', actorName: null })).toBe('System');
  });
});
