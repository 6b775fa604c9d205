import { type IdName, PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from '@ev/shared';
import { Form, Input, Select } from 'antd';
import { idNameOptions } from '../../lib/reference.ts';

/** The filter bar's fields: a label over a select, in the bar's grid (styles.css, .list-filter-fields). */
const FIELD = { style: { marginBottom: 0 } };

export const ANY = { value: '', label: 'Any' };
export const STATUS_OPTIONS = [
  ANY,
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];
/** The Payment Method filter of the booking and payment lists: Any, then the methods by their labels. */
export const PAYMENT_METHOD_OPTIONS = [
  ANY,
  ...PAYMENT_METHODS.map((value) => ({ value, label: PAYMENT_METHOD_LABELS[value] })),
];
export const AREA_TYPE_OPTIONS = [
  ANY,
  { value: 'true', label: 'Internal Used' },
  { value: 'false', label: 'Public Used' },
];

/** The value of the multi-select's 'SELECT ALL' option; never sent, it stands for every item. */
export const SELECT_ALL = '__all__';
export const SELECT_ALL_LABEL = 'SELECT ALL';

/**
 * A repeated filter (`name=1&name=2`) over a dropdown answer, searchable by name. With `selectAll`, its first
 * option 'SELECT ALL' picks every item at once.
 */
export function MultiFilter({
  label,
  name,
  placeholder,
  items,
  loading,
  selectAll = false,
}: {
  label: string;
  name: string;
  placeholder: string;
  items: IdName[] | undefined;
  loading?: boolean;
  selectAll?: boolean;
}) {
  const options = idNameOptions(items);
  const everything = (value: string[] | undefined) =>
    value?.includes(SELECT_ALL) ? options.map((option) => option.value) : value;
  return (
    <Form.Item label={label} name={name} {...FIELD} normalize={selectAll ? everything : undefined}>
      <Select
        mode="multiple"
        allowClear
        optionFilterProp="label"
        maxTagCount="responsive"
        placeholder={placeholder}
        loading={loading}
        options={selectAll ? [{ value: SELECT_ALL, label: SELECT_ALL_LABEL }, ...options] : options}
      />
    </Form.Item>
  );
}

const onlyDigits = (value: string | undefined) => value?.replace(/\D/g, '');

/** A text filter: part of a name, an email, a number; Enter searches. With `digits`, only digits can be typed. */
export function TextFilter({
  label,
  name,
  placeholder,
  digits = false,
}: {
  label: string;
  name: string;
  placeholder?: string;
  digits?: boolean;
}) {
  return (
    <Form.Item label={label} name={name} {...FIELD} normalize={digits ? onlyDigits : undefined}>
      <Input
        allowClear
        maxLength={digits ? 10 : 255}
        inputMode={digits ? 'numeric' : undefined}
        placeholder={placeholder ?? label}
      />
    </Form.Item>
  );
}

/** A single-value filter whose first option is 'Any' (value ''). */
export function OneFilter({
  label,
  name,
  options,
}: {
  label: string;
  name: string;
  options: { value: string; label: string }[];
}) {
  return (
    <Form.Item label={label} name={name} {...FIELD}>
      <Select options={options} />
    </Form.Item>
  );
}

/** '' (no choice) is shown as the placeholder, and clearing the select chooses it again. */
const emptyAsNone = (value: string | undefined) => ({ value: value || undefined });
const noneAsEmpty = (value: string | undefined) => value ?? '';

/**
 * A single-value filter picked from many options by typing (a record by its title); cleared, it filters
 * nothing. The search matches each option's `search` text (its label unless given).
 */
export function SearchFilter({
  label,
  name,
  placeholder,
  options,
  loading,
}: {
  label: string;
  name: string;
  placeholder: string;
  options: { value: string; label: string; search?: string }[];
  loading?: boolean;
}) {
  return (
    <Form.Item label={label} name={name} {...FIELD} getValueProps={emptyAsNone} normalize={noneAsEmpty}>
      <Select
        allowClear
        showSearch={{
          filterOption: (input, option) =>
            (option?.search ?? option?.label ?? '').toLowerCase().includes(input.trim().toLowerCase()),
        }}
        placeholder={placeholder}
        loading={loading}
        options={options}
      />
    </Form.Item>
  );
}
