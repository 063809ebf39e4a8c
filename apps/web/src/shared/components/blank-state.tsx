import type { ReactNode } from 'react';
import styles from './blank-state.module.css';

interface BlankStateProps {
  icon: ReactNode;
  title: string;
  description?: string;
  children?: ReactNode;
  testId?: string;
}

/** A whole-screen notice (not built, not found, no device…); lighter than antd-mobile's ErrorBlock images. */
export const BlankState = ({ icon, title, description, children, testId }: BlankStateProps) => (
  <div className={styles.blank} data-testid={testId}>
    <div className={styles.icon} aria-hidden>
      {icon}
    </div>
    <div className={styles.title}>{title}</div>
    {description ? <div className={styles.description}>{description}</div> : null}
    {children ? <div className={styles.actions}>{children}</div> : null}
  </div>
);
