import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders what only a tap opens (a popup, a calendar) from its first opening on, so its code and
 * animations (react-spring) load on demand rather than with the page; once loaded it stays mounted
 * and closes with its own animation.
 */
export const OnFirstOpen = ({ open, children }: { open: boolean; children: ReactNode }) => {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
};
