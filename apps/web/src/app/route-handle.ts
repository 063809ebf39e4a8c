import type { UIMatch } from 'react-router';
import type { ParentOf } from '../shared/use-go-back.ts';

/** Route metadata: the page title and the roles a route asks for. */
export interface RouteHandle {
  title?: string;
  roles?: readonly string[];
  /** Administration: only admins (features/admin's gate shows anyone else 无权查看). */
  admin?: boolean;
  /** Where back goes with no history in the app (opened from a message link): shared/use-go-back.ts. */
  parent?: ParentOf;
}

export const handleOf = (match: UIMatch): RouteHandle => match.handle ?? {};

const TITLE_SUFFIX: string = import.meta.env.TITLE_SUFFIX || 'Linewatch';

export const pageTitle = (title: string | undefined): string =>
  title ? `${title} - ${TITLE_SUFFIX}` : TITLE_SUFFIX;
