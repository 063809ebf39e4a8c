import { NavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import styles from './admin.module.css';

/** Every admin screen: a top bar back to the admin home (or the centre from there). */
export const AdminPage = ({
  title,
  back = paths.admin,
  right,
  children,
  testId,
}: {
  title: string;
  back?: string;
  right?: ReactNode;
  children: ReactNode;
  testId?: string;
}) => {
  const navigate = useNavigate();
  return (
    <div className={styles.page} data-testid={testId}>
      <NavBar className={styles.bar} onBack={() => void navigate(back)} right={right}>
        <span role="heading" aria-level={1}>
          {title}
        </span>
      </NavBar>
      {children}
    </div>
  );
};
