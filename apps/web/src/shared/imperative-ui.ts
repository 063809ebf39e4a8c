// antd-mobile's toast and confirm dialog in a chunk of their own, fetched on their first use (their
// animations bring react-spring); importing them from antd-mobile's barrel by import() would
// bring every component.
export { Dialog, Toast } from 'antd-mobile';
