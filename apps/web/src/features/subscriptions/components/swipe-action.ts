// antd-mobile's swipe action in a chunk of its own, loaded after the list's first render (its
// spring and drag bring react-spring and use-gesture); by import() of antd-mobile's barrel it would
// bring every component.
export { SwipeAction } from 'antd-mobile';
