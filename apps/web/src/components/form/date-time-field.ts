import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

/** A wall-clock date and time (Bangkok local, no zone), as the API and the shared schemas have it. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

/**
 * Form.Item props that keep a DatePicker's value a `YYYY-MM-DD HH:mm` string in the form; the picker works
 * with dayjs. Only the calendar fields travel (format in, format out), so the browser's zone never shifts it.
 */
export const dateTimeField = {
  getValueProps: (value: unknown) => ({
    value: typeof value === 'string' && value !== '' ? dayjs(value, DATE_TIME_FORMAT, true) : undefined,
  }),
  normalize: (value: Dayjs | null | undefined) => (value ? value.format(DATE_TIME_FORMAT) : undefined),
};
