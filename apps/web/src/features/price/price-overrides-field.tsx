import { PlusOutlined } from '@ant-design/icons';
import {
  bahtAmount,
  DAY_OF_WEEK_LABELS,
  datedOverrideFields,
  overrideIssues,
  PRICE_LABELS,
  type PriceMethod,
  weekdayOverrideFields,
} from '@ev/shared';
import { Button, DatePicker, Flex, Form, type FormRule, Select } from 'antd';
import type { ReactNode } from 'react';
import { DATE_TIME_FORMAT, dateTimeField } from '../../components/form/date-time-field.ts';
import { RemoveRowButton } from '../../components/form/fields.tsx';
import { NumberInput } from '../../components/form/number-input.tsx';
import { TIME_FORMAT, timeField } from '../../components/form/time-field.ts';
import { HhMmPicker } from '../../components/form/time-picker.tsx';
import { zodRule } from '../../lib/zod-rule.ts';

const DAYS = Object.entries(DAY_OF_WEEK_LABELS).map(([value, label]) => ({ value: Number(value), label }));
const KWH_RULES = [zodRule(bahtAmount(PRICE_LABELS.bahtPerKwh))];
const HOUR_RULES = [zodRule(bahtAmount(PRICE_LABELS.bahtPerHour))];
const CELL = { marginBottom: 0 };
const HEAD = { color: 'rgb(0 0 0 / 65%)', fontSize: 13 };
/** Column widths shared by a list's heading and its rows. */
const W = { day: '1 1 150px', time: '1 1 110px', dateTime: '1 1 190px', rate: '1 1 120px' };

type ListName = 'overrideWeekdays' | 'overrides';

/** The row's To field: after From, and no overlap with another row of the plan (the server's own rules). */
const orderRule =
  (list: ListName, index: number, toField: string): FormRule =>
  ({ getFieldValue }) => ({
    validator: () => {
      const issue = overrideIssues({
        overrideWeekdays: getFieldValue('overrideWeekdays'),
        overrides: getFieldValue('overrides'),
      }).find((found) => found.path[0] === list && found.path[1] === index && found.path[2] === toField);
      return issue ? Promise.reject(new Error(issue.message)) : Promise.resolve();
    },
  });

/** The rates a method leaves to 0 on a new row, as on the plan itself. */
export const newRowRates = (method: PriceMethod | undefined) => ({
  bahtPerKwh: method === 'HOUR' ? 0 : undefined,
  bahtPerHour: method === 'KW' ? 0 : undefined,
});

function RateCells({
  name,
  label,
  method,
}: {
  name: number;
  label: string;
  method: PriceMethod | undefined;
}) {
  return (
    <>
      <Form.Item name={[name, 'bahtPerKwh']} rules={KWH_RULES} style={{ flex: W.rate, ...CELL }}>
        <NumberInput
          maxLength={10}
          inputMode="decimal"
          disabled={method === 'HOUR'}
          placeholder="Baht/kWh"
          aria-label={`${label} Baht/kWh`}
        />
      </Form.Item>
      <Form.Item name={[name, 'bahtPerHour']} rules={HOUR_RULES} style={{ flex: W.rate, ...CELL }}>
        <NumberInput
          maxLength={10}
          inputMode="decimal"
          disabled={method === 'KW'}
          placeholder="Baht/hr"
          aria-label={`${label} Baht/hr`}
        />
      </Form.Item>
    </>
  );
}

/** A repeatable group: a heading over its rows, each removable, and an Add button. */
function OverrideList({
  list,
  what,
  heads,
  method,
  disabled,
  row,
}: {
  list: ListName;
  /** 'weekday override' or 'dated override': the buttons' words. */
  what: string;
  heads: Array<[string, string]>;
  method: PriceMethod | undefined;
  disabled: boolean;
  row: (name: number, index: number) => ReactNode;
}) {
  return (
    <Form.List name={list}>
      {(rows, { add, remove }) => (
        <Flex vertical gap={8} style={{ marginBottom: 24 }} data-testid={list}>
          {rows.length > 0 && (
            <Flex gap={8} aria-hidden style={HEAD}>
              {heads.map(([title, flex]) => (
                <span key={title} style={{ flex }}>
                  {title}
                </span>
              ))}
              {!disabled && <span style={{ width: 32 }} />}
            </Flex>
          )}
          {rows.map((field, index) => (
            <Flex key={field.key} gap={8} wrap align="start" data-testid={`${list}-row`}>
              {row(field.name, index)}
              {!disabled && (
                <RemoveRowButton label={`Remove ${what} ${index + 1}`} onClick={() => remove(field.name)} />
              )}
            </Flex>
          ))}
          {!disabled && (
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add(newRowRates(method))}
              style={{ alignSelf: 'start' }}
            >
              Add {what}
            </Button>
          )}
        </Flex>
      )}
    </Form.List>
  );
}

const weekdayRule = (field: keyof typeof weekdayOverrideFields) => zodRule(weekdayOverrideFields[field]);
const datedRule = (field: keyof typeof datedOverrideFields) => zodRule(datedOverrideFields[field]);

/** Weekly windows: a day (1 = Sunday … 7 = Saturday), From and To (`HH:mm`, both minutes included), rates. */
export function WeekdayOverridesField({
  method,
  disabled,
}: {
  method: PriceMethod | undefined;
  disabled: boolean;
}) {
  return (
    <OverrideList
      list="overrideWeekdays"
      what="weekday override"
      heads={[
        ['Day', W.day],
        ['From', W.time],
        ['To', W.time],
        ['Baht/kWh', W.rate],
        ['Baht/hr', W.rate],
      ]}
      method={method}
      disabled={disabled}
      row={(name, index) => {
        const label = `Weekday ${index + 1}`;
        return (
          <>
            <Form.Item
              name={[name, 'dayOfWeek']}
              rules={[weekdayRule('dayOfWeek')]}
              style={{ flex: W.day, ...CELL }}
            >
              <Select options={DAYS} placeholder="Day" aria-label={`${label} day`} />
            </Form.Item>
            <Form.Item
              name={[name, 'validTimeFrom']}
              rules={[weekdayRule('validTimeFrom')]}
              {...timeField}
              style={{ flex: W.time, ...CELL }}
            >
              <HhMmPicker placeholder="From" aria-label={`${label} from`} />
            </Form.Item>
            <Form.Item
              name={[name, 'validTimeTo']}
              rules={[weekdayRule('validTimeTo'), orderRule('overrideWeekdays', index, 'validTimeTo')]}
              dependencies={[
                ['overrideWeekdays', name, 'validTimeFrom'],
                ['overrideWeekdays', name, 'dayOfWeek'],
              ]}
              {...timeField}
              style={{ flex: W.time, ...CELL }}
            >
              <HhMmPicker placeholder="To" aria-label={`${label} to`} />
            </Form.Item>
            <RateCells name={name} label={label} method={method} />
          </>
        );
      }}
    />
  );
}

/** Dated periods: From and To as Bangkok wall time `YYYY-MM-DD HH:mm` (both minutes included), rates. */
export function DatedOverridesField({
  method,
  disabled,
}: {
  method: PriceMethod | undefined;
  disabled: boolean;
}) {
  return (
    <OverrideList
      list="overrides"
      what="dated override"
      heads={[
        ['From', W.dateTime],
        ['To', W.dateTime],
        ['Baht/kWh', W.rate],
        ['Baht/hr', W.rate],
      ]}
      method={method}
      disabled={disabled}
      row={(name, index) => {
        const label = `Dated ${index + 1}`;
        const picker = (which: 'from' | 'to') => (
          <DatePicker
            showTime={{ format: TIME_FORMAT }}
            format={DATE_TIME_FORMAT}
            needConfirm={false}
            placeholder={which === 'from' ? 'From' : 'To'}
            aria-label={`${label} ${which}`}
            style={{ width: '100%' }}
          />
        );
        return (
          <>
            <Form.Item
              name={[name, 'validFrom']}
              rules={[datedRule('validFrom')]}
              {...dateTimeField}
              style={{ flex: W.dateTime, ...CELL }}
            >
              {picker('from')}
            </Form.Item>
            <Form.Item
              name={[name, 'validTo']}
              rules={[datedRule('validTo'), orderRule('overrides', index, 'validTo')]}
              dependencies={[['overrides', name, 'validFrom']]}
              {...dateTimeField}
              style={{ flex: W.dateTime, ...CELL }}
            >
              {picker('to')}
            </Form.Item>
            <RateCells name={name} label={label} method={method} />
          </>
        );
      }}
    />
  );
}
