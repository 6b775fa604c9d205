import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

export const TIME_FORMAT = 'HH:mm';

/**
 * Form.Item props that keep a TimePicker's value an `HH:mm` string in the form, as the API and the shared
 * schemas have it; the picker itself works with dayjs.
 */
export const timeField = {
  getValueProps: (value: unknown) => ({
    value: typeof value === 'string' && value !== '' ? dayjs(value, TIME_FORMAT, true) : undefined,
  }),
  normalize: (value: Dayjs | null | undefined) => (value ? value.format(TIME_FORMAT) : undefined),
};
