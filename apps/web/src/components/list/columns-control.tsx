import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Flex, Popover, Typography } from 'antd';
import type { ReactNode } from 'react';
import { type ColumnChoice, columnKey, type Fit, isOptional, type ListColumns } from './fit-columns.ts';

export interface ColumnsControlProps<T> {
  columns: ListColumns<T>;
  fit: Fit<T>;
  choice: ColumnChoice;
  onChoice: (choice: ColumnChoice) => void;
}

/**
 * A list's Columns control: every column of the list with a tick for those shown. Ticking one that gave way
 * for room brings it back beside those in view (the table scrolls sideways when they need more than its
 * room); unticking one hides it.
 * The id or name, the switch and the actions always show. 'Automatic' forgets the choice.
 */
export function ColumnsControl<T>({ columns, fit, choice, onChoice }: ColumnsControlProps<T>) {
  const hidden = fit.hidden.length;
  const shown = new Set(fit.columns.map((column) => columnKey(column)));
  // A column brought back joins the ones in view, which all stay: none of them gives way for it (the table
  // scrolls sideways instead). A column hidden just goes.
  const chosen = (key: string, show: boolean): ColumnChoice =>
    show
      ? {
          ...choice,
          ...Object.fromEntries(fit.columns.filter(isOptional).map((column) => [columnKey(column), true])),
          [key]: true,
        }
      : { ...choice, [key]: false };
  const content = (
    <Flex vertical gap={4} className="list-columns-choice">
      {columns.map((column) => {
        const key = columnKey(column);
        return (
          <Checkbox
            key={key}
            checked={shown.has(key)}
            disabled={!isOptional(column)}
            onChange={(event) => onChoice(chosen(key, event.target.checked))}
          >
            {column.title as ReactNode}
          </Checkbox>
        );
      })}
      <Flex justify="space-between" align="center" gap={8} style={{ marginTop: 4 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {Object.keys(choice).length > 0 ? 'Your choice, kept for this list' : 'Placed to fit the width'}
        </Typography.Text>
        <Button size="small" disabled={Object.keys(choice).length === 0} onClick={() => onChoice({})}>
          Automatic
        </Button>
      </Flex>
    </Flex>
  );
  return (
    <Popover content={content} title="Columns" trigger="click" placement="bottomRight">
      <Button size="small" icon={<SettingOutlined />} aria-label={`Columns, ${hidden} hidden`}>
        {hidden > 0 ? `Columns (${hidden} hidden)` : 'Columns'}
      </Button>
    </Popover>
  );
}
