import { Navigate, Outlet } from 'react-router';
import { useSession } from '../lib/session.ts';
import { HOME_PATH, LANDING_PATH, LOGIN_PATH } from './route-table.ts';

/** A thin bar along the top of the window while a screen's code loads (styles.css), without antd. */
export function RouteLoading() {
  return <div className="route-loading" role="progressbar" aria-label="Loading" />;
}

/**
 * Sends the user elsewhere. The next screen's code may still be on its way (lazy routes): the loading bar
 * shows until it is, instead of an empty page.
 */
function Redirect({ to }: { to: string }) {
  return (
    <>
      <Navigate to={to} replace />
      <RouteLoading />
    </>
  );
}

/**
 * Signed-in-only routes. They read the session store, so a session cleared anywhere (Log Out, a 401)
 * takes the user to /login at once. /landing passes `requireTerms={false}`: it is where terms get accepted.
 */
export function RequireSignedIn({ requireTerms = true }: { requireTerms?: boolean }) {
  const current = useSession();
  if (!current) return <Redirect to={LOGIN_PATH} />;
  if (requireTerms && !current.termAccept) return <Redirect to={LANDING_PATH} />;
  return <Outlet />;
}

/** The login page: a signed-in user goes home (and from there to /landing if terms are pending). */
export function RequireSignedOut() {
  const current = useSession();
  if (current) return <Redirect to={HOME_PATH} />;
  return <Outlet />;
}
