import { useLocation, useMatches, useNavigate } from 'react-router';
import { paths } from './paths.ts';

/**
 * Where a page's back arrow goes when the app has no history to go back to — the page was opened
 * directly, from a message link or a bookmark: its parent in the app, a path or a path made from
 * the page's query. Routes name it in their handle (`parent`, app/routes.tsx), the one place.
 */
export type ParentOf = string | ((query: URLSearchParams) => string);

/** The parent a route's handle names for this query, or home when it names none. */
export const parentPath = (parent: ParentOf | undefined, search: string): string =>
  parent === undefined
    ? paths.home
    : typeof parent === 'string'
      ? parent
      : parent(new URLSearchParams(search));

const parentOfMatches = (matches: ReturnType<typeof useMatches>): ParentOf | undefined => {
  for (let i = matches.length - 1; i >= 0; i--) {
    const parent = (matches[i]?.handle as { parent?: ParentOf } | undefined)?.parent;
    if (parent !== undefined) return parent;
  }
  return undefined;
};

/**
 * Back in history when there is somewhere to go back to inside the app, else to the page's parent
 * (its route's `parent`), else to the home page — never out of the app.
 */
export const useGoBack = () => {
  const navigate = useNavigate();
  const matches = useMatches();
  const { search } = useLocation();
  return () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) void navigate(-1);
    else void navigate(parentPath(parentOfMatches(matches), search), { replace: true });
  };
};
