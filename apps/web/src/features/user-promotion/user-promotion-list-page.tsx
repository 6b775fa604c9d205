import { allowed, USER_PROMOTION_FILE_NAME, USER_PROMOTION_MESSAGES, type UserPromotion } from '@ev/shared';
import { Form } from 'antd';
import { MultiFilter, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { areaTypeText, formatThaiDateTime } from '../../lib/format.ts';
import { useLandlordDropdown, useMerchantDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';

const FILTERS = {
  firstName: 'one',
  lastName: 'one',
  email: 'one',
  tel: 'one',
  code: 'one',
  merchantId: 'many',
  landlordId: 'many',
} as const;

/** The Cluster Name filter for admin only; the sites narrow to the chosen clusters. */
function MemberFilters({ role }: { role: string | null }) {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const clusterFilter = allowed(role, 'memberClusterFilter');
  const merchants = useMerchantDropdown();
  const landlords = useLandlordDropdown(clusterFilter ? merchantIds : []);
  return (
    <>
      <TextFilter label="First Name" name="firstName" />
      <TextFilter label="Surname" name="lastName" />
      <TextFilter label="Email" name="email" />
      <TextFilter label="Mobile Number" name="tel" />
      <TextFilter label="Code" name="code" />
      {clusterFilter && (
        <MultiFilter
          label="Cluster Name"
          name="merchantId"
          placeholder="All clusters"
          items={merchants.data}
        />
      )}
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
    </>
  );
}

const orDash = (value: string | null) => value || '-';
/** The names joined; the kit cuts a long line with '…' and shows it whole in a tooltip. */
const names = (list: string[]) => (list.length > 0 ? list.join(', ') : '-');

/**
 * Section 3's User promotion, with the promotion's name and the redeem date. The name (pinned left) always
 * shows; with less room the area type goes first (always 'Selected landlords' for a private station code),
 * then the cluster (its sites say it), email, mobile number, promotion, redeem date and surname; the code,
 * license plate and site, which say whose car may charge where, last. At 1440 px only the area type gives
 * way; the Columns control brings it back.
 */
const COLUMNS: ListColumns<UserPromotion> = [
  {
    title: 'Name',
    dataIndex: 'firstName',
    key: 'firstName',
    sorter: true,
    fixed: 'left',
    render: orDash,
  },
  {
    title: 'Surname',
    dataIndex: 'lastName',
    key: 'lastName',
    sorter: true,
    priority: 4,
    render: orDash,
  },
  { title: 'Email', dataIndex: 'email', key: 'email', priority: 8, render: orDash },
  { title: 'Mobile Number', dataIndex: 'tel', key: 'tel', kind: 'code', priority: 7, render: orDash },
  { title: 'Code', dataIndex: 'code', key: 'code', sorter: true, kind: 'code', priority: 1 },
  {
    title: 'License Plate',
    dataIndex: 'licensePlate',
    key: 'licensePlate',
    sorter: true,
    kind: 'code',
    priority: 2,
    render: orDash,
  },
  {
    title: 'Cluster Name',
    dataIndex: 'merchantNameEns',
    key: 'merchantNameEns',
    priority: 9,
    render: names,
  },
  {
    title: 'Site Name',
    dataIndex: 'landlordNameEns',
    key: 'landlordNameEns',
    priority: 3,
    render: names,
  },
  {
    title: 'Area type',
    dataIndex: 'internal',
    key: 'internal',
    kind: 'label',
    priority: 10,
    render: (internal: boolean) => areaTypeText(internal),
  },
  { title: 'Promotion', dataIndex: 'nameEn', key: 'nameEn', priority: 6 },
  {
    title: 'Redeem Date',
    dataIndex: 'createdAt',
    key: 'createdAt',
    sorter: true,
    kind: 'date',
    priority: 5,
    render: (at: string) => formatThaiDateTime(at),
  },
];

/**
 * /user-promotion (document 3, Member page): the private-station members, for admin (all) and the station
 * role (the members of its group's sites, as the server scopes them). No actions: the spec shows none, and
 * staff end memberships by switching the promotion off.
 */
export function UserPromotionListPage() {
  const role = useRole();
  return (
    <ListPage<UserPromotion, typeof FILTERS>
      title="Member"
      endpoint="/user-promotion"
      baseQuery="type=landlord"
      itemsKey="userPromotions"
      filterSpec={FILTERS}
      filters={<MemberFilters role={role} />}
      exportSpec={{ fileName: USER_PROMOTION_FILE_NAME, notFoundMessage: USER_PROMOTION_MESSAGES.notFound }}
      columns={COLUMNS}
      rowKey="id"
    />
  );
}
