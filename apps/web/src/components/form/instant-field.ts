import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';

dayjs.extend(customParseFormat);

const BANGKOK_MS = 7 * 3_600_000;
const WALL_CLOCK = 'YYYY-MM-DD HH:mm';

/** An instant's Bangkok date and time ('2026-11-26 17:30'), whatever the browser's zone. */
export const bangkokWallClock = (iso: string) =>
  new Date(Date.parse(iso) + BANGKOK_MS).toISOString().slice(0, 16).replace('T', ' ');

/**
 * Form.Item props for an instant of the API (ISO 8601 with its offset) picked as a Bangkok date and time: the
 * form holds the instant ('…+07:00' once picked), the picker its Bangkok wall clock. Bangkok keeps +07:00 all
 * year, so no zone rules are needed.
 */
export const bangkokInstantField = {
  getValueProps: (value: unknown) => ({
    value:
      typeof value === 'string' && value !== '' && !Number.isNaN(Date.parse(value))
        ? dayjs(bangkokWallClock(value), WALL_CLOCK, true)
        : undefined,
  }),
  normalize: (value: Dayjs | null | undefined) =>
    value ? `${value.format('YYYY-MM-DDTHH:mm')}:00.000+07:00` : undefined,
};
