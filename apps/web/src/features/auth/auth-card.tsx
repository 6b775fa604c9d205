import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { SYSTEM_NAME } from '../../components/brand.ts';
import { EvLogo } from '../../components/ev-logo.tsx';

/** The frame of the signed-out pages: the system's name and mark above one card. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <main className="auth-page">
      <Card className="auth-card" variant="borderless">
        <div className="auth-brand">
          <EvLogo size={48} />
          <Typography.Title level={3} style={{ margin: 0 }}>
            {SYSTEM_NAME}
          </Typography.Title>
          <Typography.Text type="secondary">Back Office</Typography.Text>
        </div>
        {children}
      </Card>
    </main>
  );
}
