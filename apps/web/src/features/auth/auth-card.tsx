import type { ReactNode } from 'react';
import { SYSTEM_NAME } from '../../components/brand.ts';
import { EvLogo } from '../../components/ev-logo.tsx';

/** The frame of the signed-out pages: the system's name and mark above one card. */
export function AuthCard({ children }: { children: ReactNode }) {
  return (
    <main className="auth-page">
      {/* A plain card: antd's Card brings its tabs (and their menus) to a page that has none. */}
      <div className="auth-card">
        <div className="auth-brand">
          <EvLogo size={48} />
          <h1 className="auth-system-name">{SYSTEM_NAME}</h1>
          <span className="auth-subtitle">Back Office</span>
        </div>
        {children}
      </div>
    </main>
  );
}
