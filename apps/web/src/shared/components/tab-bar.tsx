// antd-mobile's tab styles without its Tabs component (the stylesheet comes with the component).
import 'antd-mobile/es/components/tabs/tabs.css';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

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
 * A tab bar (titles only, the content beside it) in antd-mobile Tabs' markup and look, its ink
 * line under the active title sliding by a CSS transition. Not antd-mobile's Tabs: they slide the
 * line with react-spring (≈ 17 KB gzip on every page with tabs) and re-measure on every change
 * below them, work a phone pays for while the page loads (Lighthouse's blocking time on
 * /deviceHistory). A few stretched tabs never scroll, so Tabs' scrolling is not needed.
 */
export const TabBar = ({ tabs, activeKey, onChange }: TabBarProps) => {
  const list = useRef<HTMLDivElement>(null);
  const [line, setLine] = useState<{ x: number; width: number } | null>(null);
  const activeIndex = tabs.findIndex((tab) => tab.key === activeKey);
  // Under the active title, as wide as it (Tabs' activeLineMode auto). The first placing does
  // not slide (no transition before it), a change of tab does.
  // Measured again when the tabs change (a third tab narrows the others) or the phone turns.
  const keys = tabs.map((tab) => tab.key).join('\n');
  useLayoutEffect(() => {
    const place = () => {
      const title = list.current?.children.item(activeIndex + 1)?.children.item(0);
      setLine(
        title instanceof HTMLElement ? { x: title.offsetLeft, width: title.offsetWidth } : null,
      );
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [activeIndex, keys]);
  const placed = useRef(false);
  const slides = placed.current;
  if (line) placed.current = true;

  const move = (step: number) => {
    const next = tabs[activeIndex + step];
    if (next) onChange(next.key);
  };
  return (
    <div className="adm-tabs">
      <div className="adm-tabs-header">
        <div
          className="adm-tabs-tab-list"
          ref={list}
          role="tablist"
          onKeyDown={(event) => {
            if (event.key === 'ArrowRight') move(1);
            if (event.key === 'ArrowLeft') move(-1);
          }}
        >
          <div
            className="adm-tabs-tab-line"
            style={{
              width: line?.width ?? 0,
              transform: `translate3d(${line?.x ?? 0}px,0px,0px)`,
              transition: slides ? 'transform 0.3s, width 0.3s' : undefined,
            }}
          />
          {tabs.map((tab) => {
            const active = tab.key === activeKey;
            return (
              <div key={tab.key} className="adm-tabs-tab-wrapper adm-tabs-tab-wrapper-stretch">
                <div
                  role="tab"
                  aria-selected={active}
                  tabIndex={active ? 0 : -1}
                  className={`adm-tabs-tab${active ? ' adm-tabs-tab-active' : ''}`}
                  onClick={() => {
                    if (!active) onChange(tab.key);
                  }}
                >
                  {tab.title}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
};
