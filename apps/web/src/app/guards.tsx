import { Navigate, Outlet } from 'react-router';
import { useSession } from '../lib/session.ts';
import { HOME_PATH, LANDING_PATH, LOGIN_PATH } from './route-table.ts';

/**
 * Signed-in-only routes. They read the session store, so a session cleared anywhere (Log Out, a 401)
 * takes the user to /login at once. /landing passes `requireTerms={false}`: it is where terms get accepted.
 */
export function RequireSignedIn({ requireTerms = true }: { requireTerms?: boolean }) {
  const current = useSession();
  if (!current) return <Navigate to={LOGIN_PATH} replace />;
  if (requireTerms && !current.termAccept) return <Navigate to={LANDING_PATH} replace />;
  return <Outlet />;
}

/** The login page: a signed-in user goes home (and from there to /landing if terms are pending). */
export function RequireSignedOut() {
  const current = useSession();
  if (current) return <Navigate to={HOME_PATH} replace />;
  return <Outlet />;
}
