import { EditOutlined } from '@ant-design/icons';
import { type ContactUs, can, formatCallCenter } from '@ev/shared';
import { Button, Card, Descriptions, Grid, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useSuccessPopup } from '../../components/success-popup.ts';
import { useRole } from '../../lib/session.ts';
import { useContactUs } from './api.ts';
import { type SocialNetwork, socialHref } from './contact-links.ts';
import { ContactUsModal } from './contact-us-modal.tsx';

const EMPTY = '-';

function SocialLink({ network, value }: { network: SocialNetwork; value: string | null }) {
  if (!value) return EMPTY;
  return (
    <Typography.Link href={socialHref(network, value)} target="_blank" rel="noopener noreferrer">
      {value}
    </Typography.Link>
  );
}

function contactItems(contact: ContactUs) {
  return [
    {
      key: 'email',
      label: 'Email Support',
      children: contact.email ? (
        <Typography.Link href={`mailto:${contact.email}`}>{contact.email}</Typography.Link>
      ) : (
        EMPTY
      ),
    },
    { key: 'phone', label: 'Call Center', children: formatCallCenter(contact.phone) },
    {
      key: 'facebook',
      label: 'Facebook',
      children: <SocialLink network="facebook" value={contact.facebook} />,
    },
    {
      key: 'instagram',
      label: 'Instagram',
      children: <SocialLink network="instagram" value={contact.instagram} />,
    },
    { key: 'line', label: 'LINE', children: <SocialLink network="line" value={contact.line} /> },
    {
      key: 'address',
      label: 'Address',
      children: <span style={{ whiteSpace: 'pre-line' }}>{contact.address || EMPTY}</span>,
    },
    { key: 'android', label: 'Minimum Version (Android)', children: contact.minVersionAndroid || EMPTY },
    { key: 'ios', label: 'Minimum Version (iOS)', children: contact.minVersionIOS || EMPTY },
  ];
}

/** /contact-us: the support details app users see, read-only; Edit opens the 'Note' dialog. */
export function ContactUsPage() {
  const contact = useContactUs();
  const role = useRole();
  const [editing, setEditing] = useState(false);
  const showSuccess = useSuccessPopup();
  // Phones get the labels above the values: side by side leaves the values too narrow.
  const wide = Grid.useBreakpoint().sm ?? true;

  // The page reloads the data whenever the dialog closes (document 2, section 2.1).
  const close = () => {
    setEditing(false);
    void contact.refetch();
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          Contact Us
        </Typography.Title>
      }
      extra={
        can(role, 'contact-us.write') && (
          <Button
            type="primary"
            icon={<EditOutlined />}
            disabled={!contact.data}
            onClick={() => setEditing(true)}
          >
            Edit
          </Button>
        )
      }
    >
      {contact.data ? (
        <Descriptions
          bordered
          column={1}
          layout={wide ? 'horizontal' : 'vertical'}
          styles={wide ? { label: { width: 240 } } : undefined}
          items={contactItems(contact.data)}
        />
      ) : (
        <Skeleton active loading={contact.isLoading} />
      )}
      {editing && contact.data && (
        <ContactUsModal contact={contact.data} onClose={close} onSaved={() => void showSuccess()} />
      )}
    </Card>
  );
}
