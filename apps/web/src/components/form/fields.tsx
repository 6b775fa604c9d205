import { DeleteOutlined } from '@ant-design/icons';
import { Button, Divider, Row, Select } from 'antd';
import type { ReactNode } from 'react';
import { idNameFieldOptions, useProvinces } from '../../lib/reference.ts';

/** A form column: full width on phones, half from md up. */
export const HALF = { xs: 24, md: 12 };

/** Text areas of the setting forms: auto-size between 3 and 5 rows, 255 characters. */
export const TEXT_AREA = { maxLength: 255, autoSize: { minRows: 3, maxRows: 5 } };

/** The 77 provinces, searchable, clearable; the value is the province id. */
export function ProvinceSelect(props: { value?: number | null; onChange?: (value: number | null) => void }) {
  const provinces = useProvinces();
  return (
    <Select
      {...props}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={provinces.isLoading}
      options={idNameFieldOptions(provinces.data)}
    />
  );
}

/** A titled part of a setting form (a divider with the title), its fields in a row grid. */
export function FormSection({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <>
      {title && (
        <Divider titlePlacement="start" style={{ marginTop: 8 }}>
          {title}
        </Divider>
      )}
      <Row gutter={16}>{children}</Row>
    </>
  );
}

/** The remove button of a row in a form list (`label` names the row for screen readers and tests). */
export function RemoveRowButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button type="text" danger icon={<DeleteOutlined />} aria-label={label} onClick={onClick} />;
}
