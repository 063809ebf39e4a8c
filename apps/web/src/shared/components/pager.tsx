import { Button } from 'antd-mobile';
import styles from './pager.module.css';

/** Previous / next paging of a list read a page at a time (the device log, the admin lists). */
export const Pager = ({
  page,
  totalPage,
  onChange,
  testId,
}: {
  page: number;
  totalPage: number;
  onChange: (page: number) => void;
  testId: string;
}) => (
  <div className={styles.pager} data-testid={testId}>
    <Button
      size="small"
      disabled={page <= 1}
      onClick={() => onChange(page - 1)}
      data-testid={`${testId}-prev`}
    >
      上一页
    </Button>
    <span data-testid={`${testId}-position`}>
      {page} / {Math.max(totalPage, 1)}
    </span>
    <Button
      size="small"
      disabled={page >= totalPage}
      onClick={() => onChange(page + 1)}
      data-testid={`${testId}-next`}
    >
      下一页
    </Button>
  </div>
);
