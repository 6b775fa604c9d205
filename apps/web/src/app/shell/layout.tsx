import {
  LogoutOutlined,
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Drawer, Flex, Grid, Layout } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { COMPANY_NAME, SYSTEM_NAME } from '../../components/brand.ts';
import { EvLogo } from '../../components/ev-logo.tsx';
import { useLogout } from '../../features/auth/api.ts';
import { fullName } from '../../lib/format.ts';
import { useSelfQuery } from '../../lib/self.ts';
import { useSession } from '../../lib/session.ts';
import { RouteLoading } from '../guards.tsx';
import { HOME_PATH, LOGIN_PATH } from '../route-table.ts';
import { AlertBell } from './alert-bell.tsx';
import { Sidebar } from './sidebar.tsx';
import './shell.css';

export const SIDER_WIDTH = 250;
export const SIDER_COLLAPSED_WIDTH = 80;
const LG_QUERY = '(min-width: 992px)';

/** Below antd's lg breakpoint the sider gives way to a drawer. */
function useIsDesktop(): boolean {
  const screens = Grid.useBreakpoint();
  // useBreakpoint is empty on the first render; ask the browser so the page does not flash the drawer.
  return screens.lg ?? window.matchMedia(LG_QUERY).matches;
}

/** The signed-in shell: sidebar, header with the user and Log Out, the page, and the footer. */
export function ShellLayout({ children }: { children?: ReactNode }) {
  const navigation = useNavigation();
  const current = useSession();
  useSelfQuery();
  const logout = useLogout();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const isDesktop = useIsDesktop();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new route or a wider screen closes the drawer
  useEffect(() => setDrawerOpen(false), [pathname, isDesktop]);

  if (!current) return null;
  const signOut = () => {
    logout();
    navigate(LOGIN_PATH, { replace: true });
  };

  return (
    <Layout className="shell">
      {isDesktop && (
        <Layout.Sider
          className="shell-sider"
          width={SIDER_WIDTH}
          collapsedWidth={SIDER_COLLAPSED_WIDTH}
          collapsed={collapsed}
          collapsible
          trigger={null}
        >
          <Sidebar role={current.adminRole} collapsed={collapsed} />
        </Layout.Sider>
      )}
      {!isDesktop && (
        <Drawer
          placement="left"
          size={SIDER_WIDTH}
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          closable={false}
          className="shell-drawer"
          styles={{ body: { padding: 0 } }}
        >
          <Sidebar role={current.adminRole} />
        </Drawer>
      )}
      <Layout>
        <Layout.Header className="shell-header">
          {isDesktop ? (
            <Button
              type="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed(!collapsed)}
              aria-label={collapsed ? 'Expand menu' : 'Collapse menu'}
            />
          ) : (
            <Flex align="center" gap={8} className="shell-header-start">
              <Button
                type="text"
                icon={<MenuOutlined />}
                onClick={() => setDrawerOpen(true)}
                aria-label="Open menu"
              />
              {/* The sider's title is in the closed drawer: the header names the product instead. */}
              <Link to={HOME_PATH} className="shell-header-brand">
                <EvLogo size={28} />
                <span>{SYSTEM_NAME}</span>
              </Link>
            </Flex>
          )}
          <Flex align="center" gap={8} className="shell-user">
            <AlertBell />
            <Link to={HOME_PATH} className="shell-user-name">
              <UserOutlined /> <span>{fullName(current.user)}</span>
            </Link>
            <Button type="text" icon={<LogoutOutlined />} onClick={signOut}>
              Log Out
            </Button>
          </Flex>
        </Layout.Header>
        <Layout.Content className="shell-content">
          {/* The next screen's code is loading (every screen is a lazy route): the current one stays until then. */}
          {navigation.state === 'loading' && <RouteLoading />}
          {children ?? <Outlet />}
        </Layout.Content>
        <Layout.Footer className="shell-footer">
          <span>
            © {new Date().getFullYear()} {COMPANY_NAME}
          </span>
          <span>Version {__APP_VERSION__}</span>
        </Layout.Footer>
      </Layout>
    </Layout>
  );
}
