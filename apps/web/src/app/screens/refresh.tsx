import { Navigate, useSearchParams } from 'react-router';
import { safeRedirect } from '../../shared/paths.ts';

/** /refresh?redirect=… re-enters a page from scratch (used to reload a route in place). */
export const Refresh = () => {
  const [params] = useSearchParams();
  return <Navigate to={safeRedirect(params.get('redirect'))} replace />;
};
