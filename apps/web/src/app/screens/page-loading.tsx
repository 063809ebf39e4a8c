import { SpinLoading } from 'antd-mobile';
import styles from './screens.module.css';

export const PageLoading = () => (
  <div className={styles.loading} data-testid="page-loading">
    <SpinLoading color="primary" />
  </div>
);
