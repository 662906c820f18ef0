/** Before a signed-out page (sign-in, the landing page) shows: a server still waiting for its operator opens setup instead. */
import { Navigate, Outlet } from 'react-router';
import { useSessionStore } from '../auth/session-store';
import { useSetupRequired } from './setup-api';

export function SetupGate() {
  const session = useSessionStore((s) => s.session);
  const required = useSetupRequired();
  // Until the answer comes the page shows: on a set-up server (nearly always) nothing flickers.
  if (!session && required.data) return <Navigate to="/setup" replace />;
  return <Outlet />;
}
