import type { IdName } from '@ev/shared';
import { Form, Select } from 'antd';
import { idNameOptions } from '../../lib/reference.ts';

/** The filter bar's fields: a label over a select, in the bar's grid (styles.css, .list-filter-fields). */
const FIELD = { style: { marginBottom: 0 } };

export const ANY = { value: '', label: 'Any' };
export const STATUS_OPTIONS = [
  ANY,
  { value: 'true', label: 'Active' },
  { value: 'false', label: 'Inactive' },
];
export const AREA_TYPE_OPTIONS = [
  ANY,
  { value: 'true', label: 'Internal Used' },
  { value: 'false', label: 'Public Used' },
];

/** A repeated filter (`name=1&name=2`) over a dropdown answer, searchable by name. */
export function MultiFilter({
  label,
  name,
  placeholder,
  items,
  loading,
}: {
  label: string;
  name: string;
  placeholder: string;
  items: IdName[] | undefined;
  loading?: boolean;
}) {
  return (
    <Form.Item label={label} name={name} {...FIELD}>
      <Select
        mode="multiple"
        allowClear
        optionFilterProp="label"
        maxTagCount="responsive"
        placeholder={placeholder}
        loading={loading}
        options={idNameOptions(items)}
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
