import { LEGAL_TITLE_MAX, legalBody, type Page, type PageBody } from '@ev/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Col, Form, Input, Row, Switch } from 'antd';
import { HALF } from '../../components/form/fields.tsx';
import { ModalForm } from '../../components/form/modal-form.tsx';
import { saveRecord } from '../../components/form/record.ts';
import { withoutFieldPrefix } from '../../components/form/server-message.ts';
import { LIST_QUERY_KEY } from '../../components/list/use-list-query.ts';
import { RichEditor } from '../../components/rich-editor/index.tsx';
import { useSuccessPopup } from '../../components/success-popup.ts';
import type { LegalType } from '../../lib/legal.ts';
import { notifyCallError } from '../../lib/notify.ts';
import { zodRule } from '../../lib/zod-rule.ts';

interface LegalValues {
  titleEn: string;
  titleTh: string;
  detailEn: string;
  detailTh: string;
  active: boolean;
}

/** The modal's title per type, for New and Edit. */
export const LEGAL_MODAL_TITLES: Record<LegalType, { create: string; edit: string }> = {
  terms: { create: 'New Term&Condition', edit: 'Edit Term&Condition' },
  privacy: { create: 'New Privacy Policy', edit: 'Edit Privacy Policy' },
};

/** A new page starts as a Draft (document 3, section 2). */
const EMPTY: LegalValues = { titleEn: '', titleTh: '', detailEn: '', detailTh: '', active: false };
const EDITOR_HEIGHT = 240;
/** The titles count their characters but take more: the rule's message says so (a maxLength would cut a paste). */
const TITLE_COUNT = { show: true, max: LEGAL_TITLE_MAX };
const { shape } = legalBody;

/**
 * POST /api/page (New) or PATCH /api/page/{id} (Edit) with the whole form. On success the modal closes, the
 * lists and the title filters reload and the success popup shows; a failure keeps the modal open, editable
 * again, with the server's message (a 409: the page in force can't be unpublished alone).
 */
function useSavePage(type: LegalType, id: number | undefined, onClose: () => void) {
  const queryClient = useQueryClient();
  const showSuccess = useSuccessPopup();
  const mutation = useMutation({
    meta: { silent: true },
    mutationFn: (body: PageBody) => saveRecord('/page', id, body),
    onSuccess: async () => {
      onClose();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY] }),
        queryClient.invalidateQueries({ queryKey: ['page', 'dropdown', type] }),
        queryClient.invalidateQueries({ queryKey: ['page', 'detail'] }),
      ]);
      await showSuccess();
    },
    onError: (error) => notifyCallError(withoutFieldPrefix(error), undefined),
  });
  return { save: (body: PageBody) => mutation.mutate(body), saving: mutation.isPending };
}

/**
 * New/Edit Term&Condition and New/Edit Privacy Policy: both titles, both details in the rich text editor
 * (one under the other, each with its whole toolbar) and the Published switch. 95%/65% wide: the widest of
 * the spec's pairs, for the editors (docs/decisions.md).
 */
export function LegalPageModal({
  type,
  page,
  onClose,
}: {
  type: LegalType;
  /** The page to edit, with its details; none for New. */
  page: Page | undefined;
  onClose: () => void;
}) {
  const [form] = Form.useForm<LegalValues>();
  const { save, saving } = useSavePage(type, page?.id, onClose);
  const titles = LEGAL_MODAL_TITLES[type];
  const initialValues: LegalValues = page
    ? {
        titleEn: page.titleEn,
        titleTh: page.titleTh,
        detailEn: page.detailEn,
        detailTh: page.detailTh,
        active: page.active,
      }
    : EMPTY;
  return (
    <ModalForm<LegalValues>
      name="legal-page"
      title={page ? titles.edit : titles.create}
      size="95%/65%"
      form={form}
      saving={saving}
      initialValues={initialValues}
      onSubmit={(values) => save({ type, ...values })}
      onClose={onClose}
    >
      <Row gutter={16}>
        <Col {...HALF}>
          <Form.Item label="Title (EN)" name="titleEn" required rules={[zodRule(shape.titleEn)]}>
            <Input count={TITLE_COUNT} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col {...HALF}>
          <Form.Item label="Title (TH)" name="titleTh" required rules={[zodRule(shape.titleTh)]}>
            <Input count={TITLE_COUNT} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Detail (EN)" name="detailEn" required rules={[zodRule(shape.detailEn)]}>
            <RichEditor height={EDITOR_HEIGHT} aria-label="Detail (EN)" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="Detail (TH)" name="detailTh" required rules={[zodRule(shape.detailTh)]}>
            <RichEditor height={EDITOR_HEIGHT} aria-label="Detail (TH)" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item
            label="Status"
            name="active"
            valuePropName="checked"
            extra="Publishing puts this version in force: every user must accept it before using the back office again."
          >
            <Switch checkedChildren="Published" unCheckedChildren="Draft" />
          </Form.Item>
        </Col>
      </Row>
    </ModalForm>
  );
}
