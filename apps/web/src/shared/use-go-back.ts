import { useNavigate } from 'react-router';
import { paths } from './paths.ts';

/** Back in history when there is somewhere to go back to inside the app, else to the home page. */
export const useGoBack = (fallback: string = paths.home) => {
  const navigate = useNavigate();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(fallback, { replace: true });
  };
};
