import { Tag } from 'antd-mobile';
import styles from './subscribed-tag.module.css';

/** Beside a machine this user follows. */
export const SubscribedTag = () => (
  <Tag color="success" className={styles.tag}>
    已订阅
  </Tag>
);
