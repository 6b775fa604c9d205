import { QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, type ThemeConfig } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useMediaQuery } from '../lib/media-query.ts';
import { setNotifier } from '../lib/notify.ts';
import { createQueryClient } from '../lib/query.ts';

// Sarabun is bundled (see main.tsx): there is no font CDN on our networks. It covers Thai and Latin.
const FONT_FAMILY =
  "Sarabun, -apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans Thai', sans-serif";

const theme: ThemeConfig = {
  token: {
    fontFamily: FONT_FAMILY,
    colorPrimary: '#0b8f5f',
    colorLink: '#0b8f5f',
    colorSuccess: '#12a05c',
    colorInfo: '#0b8f5f',
    borderRadius: 8,
  },
  components: {
    Layout: {
      siderBg: '#0f2a22',
      headerBg: '#ffffff',
      headerPadding: '0 16px',
      bodyBg: '#f3f6f5',
      footerBg: '#f3f6f5',
    },
    Menu: { darkItemBg: '#0f2a22', darkSubMenuItemBg: '#0a2019', darkItemSelectedBg: '#0b8f5f' },
  },
};

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Hands the themed notification instance to lib/notify, which the query caches call outside React. */
function NotifierBridge() {
  const { notification } = App.useApp();
  useEffect(() => setNotifier(notification), [notification]);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  // Users who ask for less motion get none: no zooming dialogs, sliding dropdowns or fading messages.
  const reduceMotion = useMediaQuery(REDUCED_MOTION);
  const themed = useMemo<ThemeConfig>(
    () => (reduceMotion ? { ...theme, token: { ...theme.token, motion: false } } : theme),
    [reduceMotion],
  );
  return (
    <ConfigProvider theme={themed}>
      <App>
        <NotifierBridge />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </App>
    </ConfigProvider>
  );
}
