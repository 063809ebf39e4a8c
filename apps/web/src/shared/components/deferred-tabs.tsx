import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { afterFirstRender } from './after-first-render.ts';

const useTabs = afterFirstRender(() => import('./tabs.ts'));

export interface DeferredTab {
  key: string;
  title: ReactNode;
}

interface DeferredTabsProps {
  tabs: readonly DeferredTab[];
  activeKey: string;
  onChange: (key: string) => void;
}

/**
 * A tab bar (titles only, the content beside it) that is antd-mobile's Tabs once they have loaded
 * after the first render (their ink bar slides with react-spring); before that a still copy of
 * their markup, the ink bar set under the active tab as Tabs set it on mounting. The swap changes
 * only the tab bar: what is beside it stays mounted.
 */
export const DeferredTabs = ({ tabs, activeKey, onChange }: DeferredTabsProps) => {
  const loaded = useTabs();
  if (!loaded) return <StillTabs tabs={tabs} activeKey={activeKey} onChange={onChange} />;
  const { Tabs } = loaded;
  return (
    <Tabs activeKey={activeKey} onChange={onChange}>
      {tabs.map((tab) => (
        <Tabs.Tab key={tab.key} title={tab.title} />
      ))}
    </Tabs>
  );
};

const StillTabs = ({ tabs, activeKey, onChange }: DeferredTabsProps) => {
  const list = useRef<HTMLDivElement>(null);
  const [line, setLine] = useState({ x: 0, width: 0 });
  const activeIndex = tabs.findIndex((tab) => tab.key === activeKey);
  // Where Tabs puts the line (activeLineMode auto): under the active tab's title, as wide as it.
  useLayoutEffect(() => {
    const tab = list.current?.children.item(activeIndex + 1)?.children.item(0);
    setLine(
      tab instanceof HTMLElement
        ? { x: tab.offsetLeft, width: tab.offsetWidth }
        : { x: 0, width: 0 },
    );
  }, [activeIndex]);
  return (
    <div className="adm-tabs" style={{ direction: 'ltr' }}>
      <div className="adm-tabs-header">
        <div className="adm-tabs-header-mask adm-tabs-header-mask-left" style={{ opacity: 0 }} />
        <div className="adm-tabs-header-mask adm-tabs-header-mask-right" style={{ opacity: 0 }} />
        <div className="adm-tabs-tab-list" ref={list} role="tablist">
          <div
            className="adm-tabs-tab-line"
            style={{ width: line.width, transform: `translate3d(${line.x}px,0px,0px)` }}
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
