import { can, type Permission } from '@ev/shared';
import type { ReactNode } from 'react';
import { ForbiddenResult } from '../components/not-found-result.tsx';
import { useSession } from '../lib/session.ts';

// Loaded with the screens (see router.tsx), not with /login: the 403 page carries antd's Result pictures.
/** A screen open to the roles holding `permission` (the one its list or record call needs); others see 403. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const current = useSession();
  if (!can(current?.adminRole, permission)) return <ForbiddenResult />;
  return children;
}
