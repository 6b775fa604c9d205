import { DatePicker, Form } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { bangkokDay, dayEnd, dayStart } from './day-range.ts';

export const DAY_FORMAT = 'YYYY-MM-DD';

/**
 * Form.Item props that keep a DatePicker's value the ISO instant the API takes (the start or the end of the
 * picked Bangkok day, '' when empty), so the URL and the export carry exactly what the list call sends.
 */
export function dayField(edge: 'start' | 'end') {
  return {
    getValueProps: (value: unknown) => {
      const day = typeof value === 'string' && value !== '' ? bangkokDay(value) : null;
      return { value: day ? dayjs(day, DAY_FORMAT) : undefined };
    },
    normalize: (value: Dayjs | null | undefined) => {
      if (!value) return '';
      const day = value.format(DAY_FORMAT);
      return edge === 'start' ? dayStart(day) : dayEnd(day);
    },
  };
}

/** A From or To date of a list's filter bar (a 'one' filter holding an ISO instant). */
export function DayFilter({ label, name, edge }: { label: string; name: string; edge: 'start' | 'end' }) {
  return (
    <Form.Item label={label} name={name} style={{ marginBottom: 0 }} {...dayField(edge)}>
      <DatePicker format={DAY_FORMAT} placeholder={label} style={{ width: '100%' }} />
    </Form.Item>
  );
}
