import { timeRangeProblem } from '@linewatch/contracts/rules/range';
import { statisticsMessages } from '@linewatch/contracts/statistics-rules';
import { Button, NavBar } from 'antd-mobile';
import { useCallback, useState, type FormEvent } from 'react';
import { ListState } from '../../../shared/components/list-state.tsx';
import { listStateOf } from '../../../shared/list-state.ts';
import { useGoBack } from '../../../shared/use-go-back.ts';
import {
  loadedRows,
  useProductGroups,
  useProductLines,
  useStatisticsPages,
  type StatisticsSearch,
} from '../api.ts';
import { StatisticsCard } from '../components/statistics-card.tsx';
import { defaultRange, formatDateTime, fromInput, toInput } from '../default-range.ts';
import styles from './statistics-page.module.css';

/** /deviceStatistics: product line → group, a time range, then five cards a page. */
const StatisticsPage = () => {
  const goBack = useGoBack();
  const [initial] = useState(() => defaultRange(new Date()));
  const [productLine, setProductLine] = useState('');
  const [productGroup, setProductGroup] = useState('');
  const [start, setStart] = useState(initial.start);
  const [end, setEnd] = useState(initial.end);
  const [problem, setProblem] = useState<string | null>(null);
  const [search, setSearch] = useState<StatisticsSearch | null>(null);

  const lines = useProductLines();
  const groups = useProductGroups(productLine);
  const pages = useStatisticsPages(search);
  const { fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = pages;
  const rows = pages.data?.pages.flatMap((page) => page.data) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = timeRangeProblem(
      { dataStartDate: start, dataEndDate: end },
      formatDateTime(new Date()),
    );
    setProblem(found);
    if (found) return;
    const filters = productLine ? { productLine, ...(productGroup ? { productGroup } : {}) } : null;
    setSearch({
      ...(filters ? { filters: JSON.stringify(filters) } : {}),
      dataStartDate: start,
      dataEndDate: end,
    });
  };

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);
  const retry = useCallback(() => {
    if (pages.isFetchNextPageError) void fetchNextPage();
    else void refetch();
  }, [fetchNextPage, pages.isFetchNextPageError, refetch]);

  return (
    <div className={styles.page}>
      <NavBar onBack={goBack} className={styles.nav}>
        设备统计
      </NavBar>
      <form className={styles.form} onSubmit={submit} noValidate data-testid="statistics-form">
        <label className={styles.field}>
          <span className={styles.label}>产品线</span>
          <select
            className={styles.control}
            value={productLine}
            data-testid="statistics-line"
            onChange={(e) => {
              setProductLine(e.target.value);
              setProductGroup('');
              setProblem(null);
            }}
          >
            <option value="">全部产品线</option>
            {(lines.data ?? []).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          <span className={styles.label}>产品组</span>
          {productLine ? (
            <select
              className={styles.control}
              value={productGroup}
              data-testid="statistics-group"
              onChange={(e) => setProductGroup(e.target.value)}
            >
              <option value="">全部产品组</option>
              {(groups.data ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ) : (
            // A group belongs to a line: choosing one first says so (docs/product.md section 5).
            <button
              type="button"
              className={`${styles.control} ${styles.placeholder}`}
              data-testid="statistics-group"
              onClick={() => setProblem(statisticsMessages.lineFirst)}
            >
              全部产品组
            </button>
          )}
        </label>
        <label className={`${styles.field} ${styles.stacked}`}>
          <span className={styles.label}>开始时间</span>
          <input
            className={styles.control}
            type="datetime-local"
            step={1}
            value={toInput(start)}
            data-testid="statistics-start"
            onChange={(e) => setStart(fromInput(e.target.value))}
          />
        </label>
        <label className={`${styles.field} ${styles.stacked}`}>
          <span className={styles.label}>结束时间</span>
          <input
            className={styles.control}
            type="datetime-local"
            step={1}
            value={toInput(end)}
            data-testid="statistics-end"
            onChange={(e) => setEnd(fromInput(e.target.value))}
          />
        </label>
        {problem ? (
          <div className={styles.problem} role="alert" data-testid="statistics-problem">
            {problem}
          </div>
        ) : null}
        <Button block color="primary" type="submit" data-testid="statistics-search">
          查询
        </Button>
      </form>
      {search ? (
        <section className={styles.results} data-testid="statistics-results">
          {pages.data?.pages[0] ? (
            <div className={styles.total} data-testid="statistics-total">
              共 {pages.data.pages[0].total} 台
            </div>
          ) : null}
          {rows.map((row) => (
            <StatisticsCard key={row.machineCode} row={row} />
          ))}
          <ListState
            state={listStateOf({
              itemCount: loadedRows(pages.data?.pages ?? []),
              isPending: pages.isPending,
              isError: pages.isError,
              isRefetchError: pages.isRefetchError,
              isFetchingNextPage,
              hasNextPage,
              searching: true,
            })}
            onRetry={retry}
            onLoadMore={loadMore}
          />
        </section>
      ) : null}
    </div>
  );
};

export default StatisticsPage;
