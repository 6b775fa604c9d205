import { EyeOutlined } from '@ant-design/icons';
import { GUIDE_TITLE_MAX, guideBody, type Page, type PageBody } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Col, Empty, Form, Input, Row, Skeleton, Switch, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useParams } from 'react-router';
import { AppModal } from '../../components/app-modal.tsx';
import { HALF } from '../../components/form/fields.tsx';
import { fetchRecord, recordId, saveRecord, useRecord } from '../../components/form/record.ts';
import { SettingForm } from '../../components/form/setting-form.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { RichEditor } from '../../components/rich-editor/index.tsx';
import { RichHtml } from '../../components/rich-html.tsx';
import { zodRule } from '../../lib/zod-rule.ts';

interface GuideValues {
  titleEn: string;
  titleTh: string;
  detailEn: string;
  detailTh: string;
  active: boolean;
}

const { shape } = guideBody;
const rule = (field: 'titleEn' | 'titleTh' | 'detailEn' | 'detailTh') => [zodRule(shape[field])];
/** A new tutorial is active (document 3, section 2). */
const EMPTY: GuideValues = { titleEn: '', titleTh: '', detailEn: '', detailTh: '', active: true };
const EDITOR_HEIGHT = 320;
/** The title counts its characters; more than 100 can be typed, and the rule says so (section 5). */
const TITLE_COUNT = { show: true, max: GUIDE_TITLE_MAX };

/** /guide/new and /guide/{id}: 'Create Tutorials'; a new id starts a new form. */
export function GuideFormPage() {
  const { id } = useParams();
  return <GuideForm key={id} id={recordId(id)} />;
}

function GuideForm({ id }: { id: string | undefined }) {
  const [form] = Form.useForm<GuideValues>();
  const guide = useRecord<Page>('/page', 'page', id);
  const [previewOpen, setPreviewOpen] = useState(false);

  const record = guide.data;
  // Another type's page is not a tutorial: the form would save it as one.
  if (id !== undefined && (guide.isError || (record && record.type !== 'guide'))) return <NotFoundResult />;

  const save = (values: GuideValues) => {
    const body: PageBody = { type: 'guide', ...values };
    return saveRecord('/page', id, body);
  };

  return (
    <>
      <SettingForm<GuideValues>
        title="Create Tutorials"
        listPath="/guide"
        form={form}
        loading={id !== undefined && !record}
        initialValues={
          record
            ? {
                titleEn: record.titleEn,
                titleTh: record.titleTh,
                detailEn: record.detailEn,
                detailTh: record.detailTh,
                active: record.active,
              }
            : EMPTY
        }
        save={save}
        extra={
          id !== undefined && (
            <Button icon={<EyeOutlined />} onClick={() => setPreviewOpen(true)} disabled={!record}>
              Preview
            </Button>
          )
        }
      >
        <Row gutter={16}>
          <Col {...HALF}>
            <Form.Item label="Title (EN)" name="titleEn" required rules={rule('titleEn')}>
              <Input count={TITLE_COUNT} />
            </Form.Item>
          </Col>
          <Col {...HALF}>
            <Form.Item label="Title (TH)" name="titleTh" required rules={rule('titleTh')}>
              <Input count={TITLE_COUNT} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label="Detail (EN)" name="detailEn" required rules={rule('detailEn')}>
              <RichEditor height={EDITOR_HEIGHT} aria-label="Detail (EN)" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label="Detail (TH)" name="detailTh" required rules={rule('detailTh')}>
              <RichEditor height={EDITOR_HEIGHT} aria-label="Detail (TH)" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label="Status" name="active" valuePropName="checked">
              <Switch checkedChildren="Active" unCheckedChildren="Inactive" />
            </Form.Item>
          </Col>
        </Row>
      </SettingForm>
      {id !== undefined && <GuidePreview id={id} open={previewOpen} onClose={() => setPreviewOpen(false)} />}
    </>
  );
}

/** The member app's width: the preview shows the page as a phone does. */
const PHONE = {
  maxWidth: 430,
  margin: '0 auto',
  padding: 16,
  border: '1px solid #e5ebe9',
  borderRadius: 12,
  background: '#fff',
} as const;

/**
 * The saved tutorial as the member app shows it: the server's copy (sanitized when it was written), fetched
 * when the preview opens, in English and Thai. Unsaved edits are not in it.
 */
function GuidePreview({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const saved = useQuery({
    queryKey: ['page', 'preview', id],
    queryFn: () => fetchRecord<Page>('/page', 'page', id),
    enabled: open,
    gcTime: 0,
    staleTime: 0,
  });
  const page = saved.data;
  const body = (title: string, detail: string) =>
    page ? (
      <article className="guide-preview" style={PHONE}>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {title}
        </Typography.Title>
        <RichHtml html={detail} />
      </article>
    ) : saved.isError ? (
      <Empty description="The tutorial could not be loaded." />
    ) : (
      <Skeleton active />
    );

  return (
    <AppModal title="Preview" open={open} onCancel={onClose} footer={null} destroyOnHidden>
      <Typography.Paragraph type="secondary">The saved tutorial, as the app shows it.</Typography.Paragraph>
      <Tabs
        items={[
          { key: 'en', label: 'EN', children: body(page?.titleEn ?? '', page?.detailEn ?? '') },
          { key: 'th', label: 'TH', children: body(page?.titleTh ?? '', page?.detailTh ?? '') },
        ]}
      />
    </AppModal>
  );
}
