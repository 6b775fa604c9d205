import { LogoutOutlined } from '@ant-design/icons';
import type { LegalPage } from '@ev/shared';
import { Button, Card, Checkbox, Flex, Spin, Typography } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { SYSTEM_NAME } from '../../components/brand.ts';
import { EvLogo } from '../../components/ev-logo.tsx';
import { RichHtml } from '../../components/rich-html.tsx';
import { ApiError } from '../../lib/api.ts';
import { opensWithTitle } from '../../lib/legal.ts';
import { notify } from '../../lib/notify.ts';
import { TERMS_CHANGED_STATUS, useAcceptTerms, useLandingPages, useLogout } from './api.ts';
import { canShowAgreement } from './landing-scroll.ts';

export const TERMS_BOX_HEIGHT = 700;

function LegalSection({ page }: { page: LegalPage | null }) {
  if (!page) return null;
  // The spec loads the Thai text of both pages here; an untranslated page falls back to English.
  const title = page.titleTh || page.titleEn;
  const html = page.detailTh || page.detailEn;
  return (
    <section className="landing-section">
      {!opensWithTitle(html, title) && <Typography.Title level={3}>{title}</Typography.Title>}
      <RichHtml html={html} />
    </section>
  );
}

export function LandingPage() {
  const navigate = useNavigate();
  const logout = useLogout();
  const pages = useLandingPages();
  const accept = useAcceptTerms();
  const boxRef = useRef<HTMLDivElement>(null);
  const [canAgree, setCanAgree] = useState(false);
  const [agreeTerms, setAgreeTerms] = useState(false);
  const [agreePrivacy, setAgreePrivacy] = useState(false);

  const check = useCallback(() => {
    const box = boxRef.current;
    if (box && canShowAgreement(box)) setCanAgree(true);
  }, []);

  // New texts (first load, or reloaded after a 409) must be read again.
  useLayoutEffect(() => {
    if (!pages.data) return;
    setCanAgree(false);
    setAgreeTerms(false);
    setAgreePrivacy(false);
    check();
  }, [pages.data, check]);

  // Images and the web font change the text's height after the first paint.
  useEffect(() => {
    const box = boxRef.current;
    if (!box || !pages.data || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(check);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, [pages.data, check]);

  const submit = () => {
    if (!pages.data) return;
    accept.mutate(
      { termsId: pages.data.terms?.id ?? null, privacyId: pages.data.privacy?.id ?? null },
      {
        onSuccess: () => navigate('/user-detail', { replace: true }),
        onError: (error) => {
          if (error instanceof ApiError && error.status === TERMS_CHANGED_STATUS) {
            notify('warning', 'Failed !', error.message);
          }
        },
      },
    );
  };

  const signOut = () => {
    logout();
    navigate('/login', { replace: true });
  };

  return (
    <div className="landing-page">
      <header className="landing-header">
        <Flex align="center" gap={12}>
          <EvLogo size={32} />
          <Typography.Text strong>{SYSTEM_NAME}</Typography.Text>
        </Flex>
        <Button type="text" icon={<LogoutOutlined />} onClick={signOut}>
          Log Out
        </Button>
      </header>
      <main className="landing-main">
        <Card variant="borderless">
          <Typography.Title level={2} className="landing-title" style={{ textAlign: 'center' }}>
            Term&amp;Condition and Privacy Policy
          </Typography.Title>
          <div
            ref={boxRef}
            className="landing-box"
            style={{ height: TERMS_BOX_HEIGHT }}
            onScroll={check}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the text box scrolls; keyboard users need to reach it
            tabIndex={0}
            role="document"
            aria-label="Term&Condition and Privacy Policy text"
          >
            <div>
              {pages.isPending && (
                <Flex justify="center" style={{ padding: 48 }}>
                  <Spin />
                </Flex>
              )}
              {pages.isError && (
                <Flex justify="center" style={{ padding: 48 }}>
                  <Button onClick={() => void pages.refetch()}>Reload</Button>
                </Flex>
              )}
              {pages.data && (
                <>
                  <LegalSection page={pages.data.terms} />
                  <LegalSection page={pages.data.privacy} />
                </>
              )}
            </div>
          </div>
          {canAgree && (
            <Flex vertical gap={8} className="landing-agree">
              <Checkbox checked={agreeTerms} onChange={(event) => setAgreeTerms(event.target.checked)}>
                I agree with Term&amp;Condition
              </Checkbox>
              <Checkbox checked={agreePrivacy} onChange={(event) => setAgreePrivacy(event.target.checked)}>
                I agree with Privacy Policy
              </Checkbox>
            </Flex>
          )}
          <Flex justify="center" style={{ marginTop: 24 }}>
            <Button
              type="primary"
              shape="round"
              size="large"
              style={{ minWidth: 160 }}
              disabled={!canAgree || !agreeTerms || !agreePrivacy || accept.isPending || !pages.data}
              loading={accept.isPending}
              onClick={submit}
            >
              Accept
            </Button>
          </Flex>
        </Card>
      </main>
    </div>
  );
}
