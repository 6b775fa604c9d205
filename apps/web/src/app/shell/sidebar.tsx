import {
  AlertOutlined,
  ApartmentOutlined,
  AuditOutlined,
  BarChartOutlined,
  BlockOutlined,
  CalendarOutlined,
  ControlOutlined,
  DashboardOutlined,
  DollarOutlined,
  EnvironmentOutlined,
  GiftOutlined,
  KeyOutlined,
  LineChartOutlined,
  MobileOutlined,
  PhoneOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  TagsOutlined,
  TeamOutlined,
  ThunderboltOutlined,
  TransactionOutlined,
} from '@ant-design/icons';
import { type AdminRole, isMenuGroup, type MenuLeaf, menuForRole } from '@ev/shared';
import { Menu, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router';
import { SYSTEM_NAME } from '../../components/brand.ts';
import { EvLogo } from '../../components/ev-logo.tsx';
import { groupKeyOf, selectedMenuKey } from './menu-items.ts';

// A collapsed menu shows only icons, so every top-level entry needs one.
const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  site: <EnvironmentOutlined />,
  group: <BlockOutlined />,
  cluster: <ApartmentOutlined />,
  devices: <ThunderboltOutlined />,
  price: <DollarOutlined />,
  'private-station': <KeyOutlined />,
  'coupon-point': <TagsOutlined />,
  marketing: <GiftOutlined />,
  'web-admin': <TeamOutlined />,
  'member-mobile-user': <MobileOutlined />,
  transaction: <TransactionOutlined />,
  'booking-management': <CalendarOutlined />,
  'booking-report': <BarChartOutlined />,
  statistics: <LineChartOutlined />,
  tutorial: <ReadOutlined />,
  policy: <SafetyCertificateOutlined />,
  'contact-us': <PhoneOutlined />,
  alerts: <AlertOutlined />,
  'audit-log': <AuditOutlined />,
  'alert-settings': <ControlOutlined />,
};

type Item = Required<MenuProps>['items'][number];

const leafItem = (leaf: MenuLeaf, icon?: ReactNode): Item => ({
  key: leaf.key,
  icon,
  label: <Link to={leaf.path}>{leaf.label}</Link>,
});

interface SidebarProps {
  role: AdminRole;
  collapsed?: boolean;
}

/** The brand and the role's menu; used in the fixed sider and in the small-screen drawer. */
export function Sidebar({ role, collapsed = false }: SidebarProps) {
  const { pathname } = useLocation();
  const entries = useMemo(() => menuForRole(role), [role]);
  const items = useMemo<Item[]>(
    () =>
      entries.map((entry) =>
        isMenuGroup(entry)
          ? {
              key: entry.key,
              icon: ICONS[entry.key],
              label: entry.label,
              children: entry.children.map((child) => leafItem(child)),
            }
          : leafItem(entry, ICONS[entry.key]),
      ),
    [entries],
  );
  const selected = selectedMenuKey(pathname, entries);
  const openGroup = groupKeyOf(selected, entries);

  return (
    <nav className="sidebar" aria-label="Main menu">
      <Link to="/user-detail" className={collapsed ? 'sidebar-brand collapsed' : 'sidebar-brand'}>
        <EvLogo size={36} />
        {!collapsed && <span className="sidebar-title">{SYSTEM_NAME}</span>}
      </Link>
      <Menu
        data-testid="sidebar-menu"
        theme="dark"
        mode="inline"
        items={items}
        selectedKeys={selected ? [selected] : []}
        defaultOpenKeys={openGroup ? [openGroup] : []}
      />
    </nav>
  );
}
