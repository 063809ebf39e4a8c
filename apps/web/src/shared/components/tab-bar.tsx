import type { ReactNode } from 'react';
import styles from './tab-bar.module.css';

export interface TabBarTab {
  key: string;
  title: ReactNode;
}

interface TabBarProps {
  tabs: readonly TabBarTab[];
  activeKey: string;
  onChange: (key: string) => void;
}

/**
 * A tab bar (titles only, the content beside it) in antd-mobile Tabs' look, the line under the
 * active title drawn by CSS (tab-bar.module.css). Not antd-mobile's Tabs: they measure the titles and slide
 * the line with react-spring (≈ 17 KB gzip on every page with tabs), and measure again on every
 * change below them, layout work a phone does while the page loads (Lighthouse's blocking time on
 * /deviceHistory); here the line moves to the tapped tab at once. A few stretched tabs never
 * scroll, so Tabs' scrolling is not needed.
 */
export const TabBar = ({ tabs, activeKey, onChange }: TabBarProps) => {
  const activeIndex = tabs.findIndex((tab) => tab.key === activeKey);
  const move = (step: number) => {
    const next = tabs[activeIndex + step];
    if (next) onChange(next.key);
  };
  return (
    <div className={styles.bar}>
      <div
        className={styles.list}
        role="tablist"
        onKeyDown={(event) => {
          if (event.key === 'ArrowRight') move(1);
          if (event.key === 'ArrowLeft') move(-1);
        }}
      >
        {tabs.map((tab) => {
          const active = tab.key === activeKey;
          return (
            <div key={tab.key} className={styles.wrapper}>
              <div
                role="tab"
                aria-selected={active}
                tabIndex={active ? 0 : -1}
                className={active ? `${styles.tab} ${styles.active}` : styles.tab}
                onClick={() => {
                  if (!active) onChange(tab.key);
                }}
              >
                {tab.title}
                {active ? <div className={styles.line} /> : null}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
};
