import { Button } from 'antd-mobile';
import styles from './selection-bar.module.css';

/** At most this many selected devices are named; the rest become an ellipsis. */
const SHOWN_SELECTED = 8;

interface SelectionBarProps {
  names: readonly string[];
  onCancel: () => void;
  onConfirm: () => void;
}

export const SelectionBar = ({ names, onCancel, onConfirm }: SelectionBarProps) => {
  const shown = names.slice(0, SHOWN_SELECTED);
  return (
    <div className={styles.bar} data-testid="selection-bar">
      <div className={styles.summary} role="status" aria-label="已选机台">
        <span>
          已选择 <b data-testid="selection-count">{names.length}</b> 台
        </span>
        <span className={styles.names} data-testid="selection-list">
          {shown.map((name, index) => (
            <span key={name} className={styles.name}>
              {name}
              {index < shown.length - 1 ? '、' : ''}
            </span>
          ))}
          {names.length > SHOWN_SELECTED ? '…' : ''}
        </span>
      </div>
      <div className={styles.actions}>
        <Button size="small" onClick={onCancel} data-testid="selection-cancel">
          取消
        </Button>
        <Button size="small" color="primary" onClick={onConfirm} data-testid="selection-confirm">
          订阅设置
        </Button>
      </div>
    </div>
  );
};
