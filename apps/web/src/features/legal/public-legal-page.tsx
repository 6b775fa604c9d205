import type { LegalPage } from '@ev/shared';
import { Card, Flex, Skeleton, Typography } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { COMPANY_NAME } from '../../components/brand.ts';
import { EvLogo } from '../../components/ev-logo.tsx';
import { NotFoundResult } from '../../components/not-found-result.tsx';
import { RichHtml } from '../../components/rich-html.tsx';
import { formatThaiDate } from '../../lib/format.ts';
import { type LegalType, opensWithTitle } from '../../lib/legal.ts';
import { usePublicLegalPage } from './api.ts';

export const PUBLIC_LEGAL_PATHS: Record<LegalType, string> = {
  terms: '/terms-and-conditions',
  privacy: '/privacy-polices',
};

/** languages=th shows Thai; anything else, and any Thai text that is missing, shows English. */
export function localized(page: LegalPage, languages: string | null) {
  const thai = languages === 'th';
  return {
    title: (thai && page.titleTh) || page.titleEn,
    detail: (thai && page.detailTh) || page.detailEn,
  };
}

export function PublicLegalPage({ type }: { type: LegalType }) {
  const [params] = useSearchParams();
  const languages = params.get('languages');
  const page = usePublicLegalPage(type);
  const text = page.data ? localized(page.data, languages) : null;
  const privacyLink =
    languages === null
      ? PUBLIC_LEGAL_PATHS.privacy
      : `${PUBLIC_LEGAL_PATHS.privacy}?${new URLSearchParams({ languages })}`;

  return (
    <div className="public-legal">
      <header className="public-legal-header">
        <EvLogo size={32} />
        <Typography.Text strong>{COMPANY_NAME}</Typography.Text>
      </header>
      <main className="public-legal-main">
        <Card variant="borderless">
          {page.isPending && <Skeleton active paragraph={{ rows: 12 }} />}
          {(page.isError || page.data === null) && <NotFoundResult />}
          {page.data && text && (
            <article lang={languages === 'th' ? 'th' : 'en'}>
              {!opensWithTitle(text.detail, text.title) && (
                <Typography.Title level={2}>{text.title}</Typography.Title>
              )}
              <Typography.Text type="secondary" className="public-legal-date">
                Update Date: {formatThaiDate(page.data.updatedAt)}
              </Typography.Text>
              <RichHtml html={text.detail} className="public-legal-detail" />
              {type === 'terms' && (
                <Flex justify="center" style={{ marginTop: 32 }}>
                  <Link to={privacyLink}>{languages === 'th' ? 'นโยบายความเป็นส่วนตัว' : 'Privacy Policy'}</Link>
                </Flex>
              )}
            </article>
          )}
        </Card>
      </main>
    </div>
  );
}
