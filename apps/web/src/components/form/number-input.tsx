import { InputNumber, type InputNumberProps } from 'antd';

/**
 * antd's props the input may not have: `min` and `max` move a typed 1001 to 1000 and a typed 0 to 1 on blur,
 * `precision` rounds a typed 12.345 to 12.35 (and 1.5 to 2), each with no message, and the form then saves
 * the changed number. The bounds and the decimals belong to the field's rule (the shared zod schema, as the
 * server applies it), which shows its message under the field and keeps Save from sending.
 */
type Clamping = 'min' | 'max' | 'precision';

export type NumberInputProps<T extends number | string = number> = Omit<InputNumberProps<T>, Clamping>;

/**
 * The text of a number when no formatter is given: as typed while typing, else the number's own digits.
 * antd would pad it to the step's decimals on blur (a typed 91 showing as 91.000000 with step 0.000001).
 */
export function asTyped(value: number | string | undefined, info: { userTyping: boolean; input: string }) {
  if (info.userTyping) return info.input;
  return value === undefined || value === null ? '' : String(value);
}

/**
 * The number input of every form: what the user typed stays in the input and in the form's value, in range
 * or not; the field's rules say what is wrong with it (docs/decisions.md, 'Number inputs never change what
 * was typed'). Full width unless a style says otherwise.
 */
export function NumberInput<T extends number | string = number>({ style, ...props }: NumberInputProps<T>) {
  // A prop spread from elsewhere (`{...shared}`) is still refused at run time, not only by the type.
  const { min: _min, max: _max, precision: _precision, ...rest } = props as InputNumberProps<T>;
  return <InputNumber<T> style={{ width: '100%', ...style }} formatter={asTyped} {...rest} />;
}
