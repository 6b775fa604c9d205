import { Button } from 'antd';
import { Navigate, useNavigate } from 'react-router';
import { NotFoundResult } from '../components/not-found-result.tsx';
import { useSession } from '../lib/session.ts';
import { HOME_PATH, LANDING_PATH, LOGIN_PATH } from './route-table.ts';
import { ShellLayout } from './shell/layout.tsx';

function GoButton({ to, label }: { to: string; label: string }) {
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => navigate(to)}>
      {label}
    </Button>
  );
}

/** Inside the shell: an in-shell route without a screen yet, or an unknown path of a signed-in user. */
export function NotFoundPage() {
  return <NotFoundResult extra={<GoButton to={HOME_PATH} label="Back to Home" />} />;
}

/** Any unknown path: in the shell for a signed-in user, on its own with a way to sign in otherwise. */
export function CatchAllPage() {
  const current = useSession();
  if (!current) {
    return (
      <main className="standalone-page">
        <NotFoundResult extra={<GoButton to={LOGIN_PATH} label="Log in" />} />
      </main>
    );
  }
  if (!current.termAccept) return <Navigate to={LANDING_PATH} replace />;
  return (
    <ShellLayout>
      <NotFoundPage />
    </ShellLayout>
  );
}
