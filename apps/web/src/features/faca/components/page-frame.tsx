import { Button, NavBar } from 'antd-mobile';
import type { ReactNode } from 'react';
import styles from './page-frame.module.css';
import { useGoBack } from '../../../shared/use-go-back.ts';

/** A FACA page: its title bar with back, and the page below it. */
export const PageFrame = ({
  title,
  right,
  children,
}: {
  title: string;
  right?: ReactNode;
  children: ReactNode;
}) => {
  const goBack = useGoBack();
  return (
    <div className={styles.page}>
      <NavBar onBack={goBack} right={right} className={styles.bar}>
        {title}
      </NavBar>
      {children}
    </div>
  );
};

/** One label: value line of a detail card. */
export const InfoRow = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className={styles.row}>
    <span className={styles.label}>{label}</span>
    <span className={styles.value}>{children}</span>
  </div>
);

export const Card = ({ children, testId }: { children: ReactNode; testId?: string }) => (
  <div className={styles.card} data-testid={testId}>
    {children}
  </div>
);

export const Footer = ({ children }: { children: ReactNode }) => (
  <div className={styles.footer}>{children}</div>
);

/** The bottom bar of a form: its one primary button (保存 unless named otherwise). */
export const SubmitFooter = ({
  pending,
  onSubmit,
  testId,
  label = '保存',
}: {
  pending: boolean;
  onSubmit: () => void;
  testId: string;
  label?: string;
}) => (
  <Footer>
    <Button block color="primary" loading={pending} onClick={onSubmit} data-testid={testId}>
      {label}
    </Button>
  </Footer>
);

/** 重置 and 搜索 under a list's search fields. */
export const SearchActions = ({
  onReset,
  onSearch,
  testId,
}: {
  onReset: () => void;
  onSearch: () => void;
  testId: string;
}) => (
  <div style={{ display: 'flex', gap: 8, marginTop: 8 }}>
    <Button block onClick={onReset} data-testid={`${testId}-reset`}>
      重置
    </Button>
    <Button block color="primary" onClick={onSearch} data-testid={`${testId}-submit`}>
      搜索
    </Button>
  </div>
);
