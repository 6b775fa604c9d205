import { Button, Flex } from 'antd';
import { LINK_CHROME } from './content-width.ts';
import type { ListColumn } from './fit-columns.ts';
import { useOpenSetting } from './list-return.ts';
import { ActiveSwitch, DeleteButton } from './row-actions.tsx';

/**
 * The shape the shared columns need: every record of the lists has an id (a number, or a charger's OCPP
 * identity), a name and a flag.
 */
export type ListRecord = { id: number | string; active: boolean } & (
  | { nameEn: string }
  | { name: string }
  | { descEn: string }
  | { titleEn: string }
);

/**
 * The record's name for labels and confirmations: its English name, its only one (a charger brand's), its
 * English description (a price plan's) or its English title (a content page's).
 */
const recordName = (row: ListRecord) =>
  'nameEn' in row ? row.nameEn : 'name' in row ? row.name : 'descEn' in row ? row.descEn : row.titleEn;

/** The record's path under `endpoint`, for the API and for its setting page alike, e.g. `/merchant/3`. */
const pathOf = (endpoint: string, id: number | string) => `${endpoint}/${id}`;

/**
 * The width of the pinned switch column (the lists' cells have 8 px sides): the switch under its header, which
 * on a phone breaks after its '/'.
 */
const SWITCH_WIDTH = { width: 130, compactWidth: 92 };

/** An 'Action' column: the row's buttons side by side on one line, as wide as the widest row's. */
function actionsSized<T>(labels: (row: T) => string[]): Pick<ListColumn<T>, 'kind' | 'textOf' | 'chrome'> {
  return { kind: 'label', textOf: labels, chrome: LINK_CHROME };
}

/** 'Inactive/Active': the switch that saves at once; disabled for a role that may not change the record. */
export function activeColumn<T extends ListRecord>(endpoint: string, disabled = false): ListColumn<T> {
  return {
    title: (
      <>
        Inactive/
        <wbr />
        Active
      </>
    ),
    dataIndex: 'active',
    key: 'active',
    sorter: true,
    // With the Action column, stays in view when a wide list scrolls sideways.
    fixed: 'right',
    ...SWITCH_WIDTH,
    render: (_, row) => (
      <ActiveSwitch
        path={pathOf(endpoint, row.id)}
        name={recordName(row)}
        active={row.active}
        disabled={disabled}
      />
    ),
  };
}

/** 'Area type': the internal flag in words. */
export function areaTypeColumn<T extends { internal: boolean }>(priority?: number): ListColumn<T> {
  return {
    title: 'Area type',
    dataIndex: 'internal',
    key: 'internal',
    sorter: true,
    kind: 'label',
    priority,
    render: (internal: boolean) => (internal ? 'Internal Used' : 'Public Used'),
  };
}

function OpenButton({ path, label }: { path: string; label: string }) {
  const openSetting = useOpenSetting();
  return (
    <Button type="link" size="small" onClick={() => openSetting(path)}>
      {label}
    </Button>
  );
}

/**
 * 'Action': open the setting page (Edit or View), and Delete on inactive rows when the role may delete.
 * `pages`: where the setting pages are when not under the API's endpoint (`/promotion/point/{id}` for the
 * record `/promotion/{id}`).
 */
export function actionColumn<T extends ListRecord>(
  endpoint: string,
  {
    open,
    canDelete = true,
    pages = endpoint,
  }: { open: 'Edit' | 'View'; canDelete?: boolean; pages?: string },
): ListColumn<T> {
  return {
    title: 'Action',
    key: 'action',
    fixed: 'right',
    ...actionsSized((row) => (canDelete && !row.active ? [open, 'Delete'] : [open])),
    render: (_, row) => (
      <Flex gap={4} wrap={false}>
        <OpenButton path={pathOf(pages, row.id)} label={open} />
        {canDelete && !row.active && <DeleteButton path={pathOf(endpoint, row.id)} name={recordName(row)} />}
      </Flex>
    ),
  };
}

/** The list's 'New …' button, opening `{endpoint}/new` with the list's state. */
export function NewButton({ endpoint, label }: { endpoint: string; label: string }) {
  const openSetting = useOpenSetting();
  return (
    <Button type="primary" onClick={() => openSetting(pathOf(endpoint, 'new'))}>
      {label}
    </Button>
  );
}

/**
 * 'Action' of a list whose records open in a modal, not a page: Edit (or View) hands the row to `onOpen`;
 * Delete on inactive rows when the role may delete, confirmed with the record's `nameOf`.
 */
export function callbackActionColumn<T extends { id: number; active: boolean }>(
  endpoint: string,
  {
    label = 'Edit',
    onOpen,
    nameOf,
    canDelete = true,
  }: {
    label?: 'Edit' | 'View';
    onOpen: (row: T) => void;
    nameOf: (row: T) => string;
    canDelete?: boolean;
  },
): ListColumn<T> {
  return {
    title: 'Action',
    key: 'action',
    fixed: 'right',
    ...actionsSized((row) => (canDelete && !row.active ? [label, 'Delete'] : [label])),
    render: (_, row) => (
      <Flex gap={4} wrap={false}>
        <Button type="link" size="small" aria-label={`${label} ${nameOf(row)}`} onClick={() => onOpen(row)}>
          {label}
        </Button>
        {canDelete && !row.active && <DeleteButton path={pathOf(endpoint, row.id)} name={nameOf(row)} />}
      </Flex>
    ),
  };
}
