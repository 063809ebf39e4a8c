import { historyMessages, type DetailRow, type DtRow } from '@linewatch/contracts/history';
import { tableMeetsTarget, targetTone } from '@linewatch/contracts/rules/targets';
import { formatDuration, formatNumber, formatPercent } from '../../../shared/format.ts';
import styles from './detail-table.module.css';

/** A verdict's class: green, red, or none (neutral) with no data. */
const tone = (ok: boolean | null) => styles[targetTone(ok)] ?? '';

const Figure = ({ text, target, ok }: { text: string; target: string; ok: boolean | null }) => (
  <td className={tone(ok)} data-ok={ok === null ? 'none' : String(ok)}>
    <div className={styles.value}>{text}</div>
    <div className={styles.target}>目标 {target}</div>
  </td>
);

/** A row's period: the day (MM-DD), or the week by its first day in the range (MM-DD起). */
const periodLabel = (dataDate: string, byWeek: boolean) =>
  byWeek ? `${dataDate.slice(5)}起` : dataDate.slice(5);

/**
 * The range view's table (docs/product.md section 2): per date (or per week) PPM, 优率 and 稼动率 against
 * their targets, a warning mark when any misses, and the OK count; a period with nothing recorded
 * says so.
 */
export const DetailTable = ({
  rows,
  byWeek = false,
}: {
  rows: readonly DetailRow[];
  byWeek?: boolean;
}) => (
  <div className={styles.wrap}>
    <table className={styles.table} data-testid="history-table">
      <thead>
        <tr>
          <th>{byWeek ? '周' : '日期'}</th>
          <th>PPM</th>
          <th>优率</th>
          <th>稼动率</th>
          <th>OK数</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const checks = [
            tableMeetsTarget(row.ppm, row.ppmTarget),
            tableMeetsTarget(row.excellentRate, row.excellentRateTarget),
            tableMeetsTarget(row.useRate, row.useRateTarget),
          ];
          const missed = checks.some((c) => c === false);
          return (
            <tr key={row.dataDate} data-testid="history-row" data-missed={String(missed)}>
              <th scope="row" className={styles.date}>
                {periodLabel(row.dataDate, byWeek)}
                {missed ? (
                  <span
                    className={styles.warning}
                    role="img"
                    aria-label="未达标"
                    data-testid="row-warning"
                  >
                    !
                  </span>
                ) : null}
              </th>
              {row.hasData ? (
                <>
                  <Figure
                    text={formatNumber(row.ppm)}
                    target={formatNumber(row.ppmTarget)}
                    ok={checks[0]!}
                  />
                  <Figure
                    text={formatPercent(row.excellentRate)}
                    target={formatPercent(row.excellentRateTarget)}
                    ok={checks[1]!}
                  />
                  <Figure
                    text={formatPercent(row.useRate)}
                    target={formatPercent(row.useRateTarget)}
                    ok={checks[2]!}
                  />
                  <td className={styles.value}>{row.okNum}</td>
                </>
              ) : (
                <td colSpan={4} className={styles.noData}>
                  {historyMessages.noData}
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  </div>
);

/**
 * DT per date (docs/product.md section 2): green when the machine had no fault time, red otherwise; a period
 * with nothing recorded is neither (no data is not a DT of 0, docs/design.md section 5).
 */
export const DtList = ({ rows, byWeek = false }: { rows: readonly DtRow[]; byWeek?: boolean }) => (
  <ul className={styles.dtList} aria-label="DT" data-testid="dt-list">
    {rows.map((row) => (
      <li
        key={row.dataDate}
        className={`${styles.dtItem} ${tone(row.hasData ? row.dtTime === 0 : null)}`}
        data-testid="dt-row"
        data-zero={row.hasData ? String(row.dtTime === 0) : 'none'}
      >
        <span>{byWeek ? `${row.dataDate}起一周` : row.dataDate}</span>
        <span>{row.hasData ? formatDuration(row.dtTime * 60) : '无生产数据'}</span>
      </li>
    ))}
  </ul>
);
