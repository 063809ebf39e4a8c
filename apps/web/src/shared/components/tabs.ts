// antd-mobile's tabs in a chunk of their own, loaded after the first render by deferred-tabs.tsx
// (the ink bar slides with react-spring); by import() of antd-mobile's barrel it would bring
// every component.
export { Tabs } from 'antd-mobile';
