import { TimePicker, type TimePickerProps } from 'antd';
import { TIME_FORMAT } from './time-field.ts';

/**
 * The `HH:mm` picker of the forms' time rows (opening hours, price windows), full width, taking a typed time
 * without a confirm click. Put it in a Form.Item with `timeField` so the form holds an `HH:mm` string.
 */
export function HhMmPicker(props: TimePickerProps) {
  return <TimePicker format={TIME_FORMAT} needConfirm={false} style={{ width: '100%' }} {...props} />;
}
