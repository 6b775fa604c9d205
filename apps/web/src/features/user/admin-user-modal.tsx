import {
  ADMIN_ROLE_LABELS,
  ADMIN_ROLES,
  type AdminRole,
  adminUserBody,
  NAME_MAX,
  ROLE_LINKS,
  USER_MESSAGES,
  userEmail,
} from '@ev/shared';
import { Col, Flex, Form, Input, Row, Select, Switch, Typography } from 'antd';
import { HALF } from '../../components/form/fields.tsx';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { HistoryButton } from '../../components/history-button.tsx';
import {
  idNameFieldOptions,
  useLandlordDropdown,
  useMerchantDropdown,
  usePartyDropdown,
} from '../../lib/reference.ts';
import { zodRule } from '../../lib/zod-rule.ts';
import { type UserModalProps, useSaveUser } from './api.ts';

interface AdminValues {
  email: string;
  firstName: string;
  lastName: string;
  adminRole?: AdminRole;
  merchantId?: number;
  partyId?: number;
  landlordId?: number;
  active: boolean;
}

const ROLE_OPTIONS = ADMIN_ROLES.map((value) => ({ value, label: ADMIN_ROLE_LABELS[value] }));
const required = (message: string) => [{ required: true, message }];
const SEARCH = { optionFilterProp: 'label' } as const;

/**
 * New Admin User / Edit Admin User. The role decides the fields (document 2, section 4): Cluster for merchant
 * and landlord, Group for party and station, Site for landlord, disabled until a cluster is chosen and
 * listing only its sites. No password field: a new user is mailed an invitation to set one.
 */
export function AdminUserModal({ user, onClose }: UserModalProps) {
  const [form] = Form.useForm<AdminValues>();
  const { save, saving } = useSaveUser(form, user?.id, onClose);
  const role = Form.useWatch('adminRole', form);
  const merchantId = Form.useWatch('merchantId', form);
  const links = role ? ROLE_LINKS[role] : [];
  const merchants = useMerchantDropdown();
  const parties = usePartyDropdown();
  const sites = useLandlordDropdown(merchantId ? [String(merchantId)] : []);

  const initialValues: AdminValues = user
    ? {
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        adminRole: user.adminRole ?? undefined,
        merchantId: user.merchantId ?? undefined,
        partyId: user.partyId ?? undefined,
        landlordId: user.landlordId ?? undefined,
        active: user.active,
      }
    : { email: '', firstName: '', lastName: '', active: true };

  // Only the links the role shows are sent; the server keeps no others.
  const submit = ({ adminRole, merchantId, partyId, landlordId, ...values }: AdminValues) => {
    const needs = adminRole ? ROLE_LINKS[adminRole] : [];
    save({
      type: 'admin',
      ...values,
      adminRole: adminRole as AdminRole,
      merchantId: needs.includes('merchantId') ? merchantId : null,
      partyId: needs.includes('partyId') ? partyId : null,
      landlordId: needs.includes('landlordId') ? landlordId : null,
    });
  };

  return (
    <ModalForm<AdminValues>
      name="admin-user"
      title={user ? 'Edit Admin User' : 'New Admin User'}
      form={form}
      saving={saving}
      initialValues={initialValues}
      onSubmit={submit}
      onClose={onClose}
      after={
        user && (
          <Flex justify="end">
            <HistoryButton entity="user" id={user.id} size="small" />
          </Flex>
        )
      }
    >
      {!user && (
        <Typography.Paragraph type="secondary">
          The new user gets an invitation mail with a link to set a password (valid for 72 hours).
        </Typography.Paragraph>
      )}
      <Row gutter={16}>
        <Col {...HALF}>
          <Form.Item label="Email" name="email" required rules={[zodRule(userEmail)]}>
            <Input maxLength={255} autoComplete="off" autoFocus />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Role" name="adminRole" rules={required(USER_MESSAGES.adminRole)}>
            <Select options={ROLE_OPTIONS} placeholder="Choose a role" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Name" name="firstName" required rules={[zodRule(adminUserBody.shape.firstName)]}>
            <Input maxLength={NAME_MAX} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Surname" name="lastName" required rules={[zodRule(adminUserBody.shape.lastName)]}>
            <Input maxLength={NAME_MAX} autoComplete="off" />
          </Form.Item>
        </Col>
        {links.includes('merchantId') && (
          <Col {...HALF}>
            <Form.Item label="Cluster Name" name="merchantId" rules={required(USER_MESSAGES.merchantId)}>
              <Select
                showSearch={SEARCH}
                placeholder="Choose a cluster"
                loading={merchants.isLoading}
                options={idNameFieldOptions(merchants.data)}
                // A site belongs to one cluster: a new cluster clears the site.
                onChange={() => form.setFieldValue('landlordId', undefined)}
              />
            </Form.Item>
          </Col>
        )}
        {links.includes('landlordId') && (
          <Col {...HALF}>
            <Form.Item label="Site Name" name="landlordId" rules={required(USER_MESSAGES.landlordId)}>
              <Select
                showSearch={SEARCH}
                disabled={!merchantId}
                placeholder={merchantId ? 'Choose a site' : 'Choose a cluster first'}
                loading={Boolean(merchantId) && sites.isLoading}
                options={merchantId ? idNameFieldOptions(sites.data) : []}
              />
            </Form.Item>
          </Col>
        )}
        {links.includes('partyId') && (
          <Col {...HALF}>
            <Form.Item label="Group Name" name="partyId" rules={required(USER_MESSAGES.partyId)}>
              <Select
                showSearch={SEARCH}
                placeholder="Choose a group"
                loading={parties.isLoading}
                options={idNameFieldOptions(parties.data)}
              />
            </Form.Item>
          </Col>
        )}
        <Col span={24}>
          <Form.Item label="Active" name="active" valuePropName="checked">
            <Switch checkedChildren="Available" unCheckedChildren="Locked" />
          </Form.Item>
        </Col>
      </Row>
    </ModalForm>
  );
}
